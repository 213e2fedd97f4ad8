// Programmatic API for Sesame's local infrastructure (Redis, Kafka, FerretDB, the tests' SMTP server).
//
//   import { up, down, start, stop, status, env } from '../scripts/infra/index.mjs';
//   await up({ log: console.log });   // install (cached) + start all + wait ready
//   await stop('kafka'); await start('kafka');   // same data dir, cluster id, port
//   await up({ topology: 'ha' });      // also Sentinel + Redis Cluster (redis-ha.mjs), 3 Kafka brokers (kafka-ha.mjs)
//
// Runtime state (data, logs, pid files) lives in <repo>/.sesame/infra/.
import fs from 'node:fs';
import path from 'node:path';
import jaeger, { jaegerEnv } from './jaeger.mjs';
import { KAFKA_HA_SERVICES, kafkaHaEnv, settleKafkaHa } from './kafka-ha.mjs';
import kafka from './kafka.mjs';
import { InfraError, RUNTIME_DIR, fmtMs, isAlive, mkdirp, ports, readPid, sleep, withLock } from './lib.mjs';
import mongo from './mongo.mjs';
import { portOpen } from './probes.mjs';
import { findProcesses, spawnDetached, terminate } from './proc.mjs';
import { HA_SERVICES as REDIS_HA_SERVICES, haEnv, settleHa as settleRedisHa } from './redis-ha.mjs';
import redis from './redis.mjs';
import smtp from './smtp.mjs';

export { InfraError, RUNTIME_DIR };
export const SERVICES = { redis, kafka, mongo, smtp };
export const NAMES = Object.keys(SERVICES);
/** The HA topology's servers (each kind a module of its own): started only by `up --topology ha`. */
const HA_SERVICES = { ...REDIS_HA_SERVICES, ...KAFKA_HA_SERVICES };
export const HA_NAMES = Object.keys(HA_SERVICES);
/**
 * Optional servers: `up --with <name>` only. Not part of `--topology ha`: Jaeger's first build takes most of an
 * hour on a busy two-core machine, which test:ha should not wait for.
 */
export const OPTIONAL_NAMES = ['jaeger'];
const ALL = { ...SERVICES, ...HA_SERVICES, jaeger };
const PORT_ENV = {
  redis: 'SESAME_INFRA_REDIS_PORT',
  kafka: 'SESAME_INFRA_KAFKA_PORT',
  mongo: 'SESAME_INFRA_MONGO_PORT',
  smtp: 'SESAME_INFRA_SMTP_PORT',
  jaeger: 'SESAME_INFRA_JAEGER_PORT',
  ...Object.fromEntries(
    HA_NAMES.map((n) => [
      n,
      n.startsWith('kafka-')
        ? 'SESAME_INFRA_KAFKA_HA_PORT'
        : n.startsWith('sentinel')
          ? 'SESAME_INFRA_SENTINEL_PORT'
          : n.startsWith('cluster')
            ? 'SESAME_INFRA_REDIS_CLUSTER_PORT'
            : 'SESAME_INFRA_REDIS_HA_PORT',
    ]),
  ),
};
const namesOf = (topology, withs = []) => [
  ...(topology === 'ha' ? [...NAMES, ...HA_NAMES] : NAMES),
  ...withs.filter((n) => OPTIONAL_NAMES.includes(n)),
];

/** Paths of a server's pid file, server log and install log. */
export function files(name) {
  const logs = path.join(RUNTIME_DIR, 'logs');
  return {
    pid: path.join(RUNTIME_DIR, `${name}.pid`),
    log: path.join(logs, `${name}.log`),
    installLog: path.join(logs, `${name}-install.log`),
  };
}

function svc(name) {
  const s = ALL[name];
  if (!s)
    throw new InfraError(`unknown server "${name}" (expected one of: ${[...NAMES, ...HA_NAMES].join(', ')})`);
  return s;
}

const noop = () => {};

/** After the HA servers answer: the Redis cluster and Sentinel pair settle, and the three Kafka brokers meet. */
export async function settleHa({ log = noop } = {}) {
  await Promise.all([settleRedisHa({ log }), settleKafkaHa({ log })]);
}

/** The connection settings for the running infra (with topology 'ha': the Sentinel and Cluster URLs too). */
export function env({ topology, withs = [] } = {}) {
  const p = ports();
  return {
    ...(topology === 'ha' ? { ...haEnv(), ...kafkaHaEnv() } : {}),
    ...(withs.includes('jaeger') ? jaegerEnv() : {}),
    SESAME_REDIS_URL: `redis://127.0.0.1:${p.redis}`,
    SESAME_KAFKA_BROKERS: `127.0.0.1:${p.kafka}`,
    SESAME_MONGO_URL: `mongodb://127.0.0.1:${p.mongo}/sesame`,
    SESAME_SMTP_URL: `smtp://127.0.0.1:${p.smtp}`,
    SESAME_TEST_MAILBOX_URL: `http://127.0.0.1:${p.smtpApi}`,
  };
}

/** Pid of our running server: from its pid file, else found in /proc (pid file lost). */
function findPid(name) {
  const s = svc(name);
  const pidFile = files(name).pid;
  const pid = readPid(pidFile);
  if (pid && isAlive(pid, (argv) => s.matches(argv))) return pid;
  const [found] = findProcesses((argv) => s.matches(argv));
  if (found) {
    mkdirp(RUNTIME_DIR);
    fs.writeFileSync(pidFile, String(found));
    return found;
  }
  if (pid) fs.rmSync(pidFile, { force: true });
  return null;
}

/** Pid of one running server of ours, or null (for drills that kill -9 it). */
export function pidOf(name) {
  return findPid(name);
}

async function waitReady(name, pid, child) {
  const s = svc(name);
  const { log: logFile } = files(name);
  const deadline = Date.now() + s.startTimeoutMs;
  for (;;) {
    if (child?.state.exited || !isAlive(pid)) {
      const st = child?.state;
      const how = st?.error
        ? st.error.message
        : st?.signal
          ? `signal ${st.signal}`
          : st?.code != null
            ? `exit code ${st.code}`
            : 'process gone';
      fs.rmSync(files(name).pid, { force: true });
      throw new InfraError(`${name} exited during startup (${how})`, { logFile });
    }
    if (await s.ready()) return;
    if (Date.now() > deadline) {
      if (child) await terminate(pid, null, s.stopTimeoutMs);
      throw new InfraError(`${name} did not become ready within ${fmtMs(s.startTimeoutMs)} (pid ${pid})`, {
        logFile,
      });
    }
    await sleep(200);
  }
}

/**
 * Install (if needed) and start one server, resolving once it really answers.
 * A server that is already running is left alone (but waited on until ready).
 */
export function start(name, { log = noop } = {}) {
  const s = svc(name);
  return withLock(name, async () => {
    const f = files(name);
    mkdirp(path.dirname(f.log));
    const t0 = Date.now();
    await s.install({ log, logFile: f.installLog });
    const existing = findPid(name);
    if (existing) {
      await waitReady(name, existing, null);
      log(`✓ ${name}: already running (pid ${existing}, port ${s.port()})`);
      return { name, pid: existing, port: s.port(), started: false };
    }
    for (const port of [s.port(), ...s.extraPorts()]) {
      if (await portOpen(port)) {
        throw new InfraError(
          `${name}: 127.0.0.1:${port} is already in use by a process this script did not start; ` +
            `stop it or choose another port with ${PORT_ENV[name]}`,
        );
      }
    }
    const spec = await s.prepare({ log, serverLog: f.log });
    const tStart = Date.now();
    log(
      `→ ${name}: starting on 127.0.0.1:${s.port()} (log: ${path.relative(process.cwd(), f.log) || f.log})`,
    );
    const child = spawnDetached(spec.cmd, spec.args, { cwd: spec.cwd, env: spec.env, logFile: f.log });
    if (child.pid) fs.writeFileSync(f.pid, String(child.pid));
    else await sleep(50); // spawn failed: the 'error' event marks state.exited
    await waitReady(name, child.pid, child);
    log(
      `✓ ${name}: ready on 127.0.0.1:${s.port()}, pid ${child.pid} (${fmtMs(Date.now() - tStart)}; total ${fmtMs(Date.now() - t0)})`,
    );
    return { name, pid: child.pid, port: s.port(), started: true };
  });
}

/** Stop one server: SIGTERM, wait, SIGKILL after its timeout. */
export function stop(name, { log = noop } = {}) {
  const s = svc(name);
  return withLock(name, async () => {
    const pid = findPid(name);
    if (!pid) {
      log(`  ${name}: not running`);
      return { name, result: 'not running' };
    }
    const t0 = Date.now();
    const result = await terminate(pid, (argv) => s.matches(argv), s.stopTimeoutMs);
    fs.rmSync(files(name).pid, { force: true });
    for (let i = 0; i < 50 && (await portOpen(s.port(), undefined, 200)); i++) await sleep(100);
    log(`✓ ${name}: ${result} (pid ${pid}, ${fmtMs(Date.now() - t0)})`);
    return { name, pid, result };
  });
}

/** One entry per server: { name, state: running|unresponsive|stopped, pid, port, portInUse }. */
export async function status({ topology, withs } = {}) {
  return Promise.all(
    namesOf(topology, withs).map(async (name) => {
      const s = svc(name);
      const pid = findPid(name);
      const ready = pid ? await s.ready() : false;
      const portInUse = await portOpen(s.port());
      const state = pid ? (ready ? 'running' : 'unresponsive') : 'stopped';
      return { name, state, pid, port: s.port(), portInUse };
    }),
  );
}

/**
 * Install what is missing and start all servers in parallel; resolves with env()
 * once every server answers. On failure, rejects with an InfraError whose
 * `failures` lists [{ name, error }] (each error may carry `logFile`).
 */
export async function up({ log = noop, topology, withs } = {}) {
  const t0 = Date.now();
  mkdirp(RUNTIME_DIR);
  const names = namesOf(topology, withs);
  const results = await Promise.allSettled(names.map((n) => start(n, { log })));
  const failures = results.flatMap((r, i) =>
    r.status === 'rejected' ? [{ name: names[i], error: r.reason }] : [],
  );
  if (!failures.length && topology === 'ha') {
    await settleHa({ log }).catch((error) => failures.push({ name: 'ha', error }));
  }
  if (failures.length) {
    const err = new InfraError(`infra up failed for: ${failures.map((f) => f.name).join(', ')}`);
    err.failures = failures;
    throw err;
  }
  log(`✓ infra up (${fmtMs(Date.now() - t0)})`);
  return env({ topology, withs });
}

/** Stop all servers (the HA topology's too); with only 'ha', just the HA topology's. */
export async function down({ log = noop, only } = {}) {
  const t0 = Date.now();
  const names = only === 'ha' ? [...HA_NAMES, ...OPTIONAL_NAMES] : [...NAMES, ...HA_NAMES, ...OPTIONAL_NAMES];
  const results = await Promise.all(names.map((n) => stop(n, { log })));
  log(`✓ infra down (${fmtMs(Date.now() - t0)})`);
  return results;
}
