#!/usr/bin/env node
// CLI for Sesame's local infra: a thin wrapper over ./index.mjs.
// Usage: node scripts/infra/cli.mjs up|down|status|env [--json] [--topology ha]|start <svc>|stop <svc>
import path from 'node:path';
import { HA_NAMES, NAMES, OPTIONAL_NAMES, down, env, start, status, stop, up } from './index.mjs';
import { tail } from './lib.mjs';

const USAGE = `usage: node scripts/infra/cli.mjs <command>

  up             install what is missing (cached), start ${NAMES.join(', ')}, wait until ready
  down           stop all servers, the HA topology's too (SIGTERM, then SIGKILL after a timeout)
  status         one line per server: state, pid, port
  env [--json]   print the SESAME_* connection variables (shell exports, or JSON)
  start <svc>    start one server (${[...NAMES, ...HA_NAMES].join('|')})
  stop <svc>     stop one server

  --topology ha  with up, status and env: also the HA topology, a Sentinel setup (redis-primary,
                 redis-replica, sentinel-1..3, master "sesame"), a 3-primary Redis Cluster (cluster-1..3) and
                 three Kafka brokers (kafka-1..3, replication factor 3, min.insync.replicas 2); env adds
                 SESAME_REDIS_SENTINEL_URL, SESAME_REDIS_CLUSTER_URL and SESAME_KAFKA_HA_BROKERS
  --only ha      with down: stop only the HA topology's servers
  --with jaeger  with up, status and env: also Jaeger (traces: OTLP receiver, query API; first build takes long,
                 so not part of --topology ha); env adds SESAME_JAEGER_URL and SESAME_JAEGER_OTLP_URL (docs/operations.md, Tracing)

Ports: SESAME_INFRA_REDIS_PORT (16379), SESAME_INFRA_KAFKA_PORT (19092; controller +1),
SESAME_INFRA_MONGO_PORT (27117), SESAME_INFRA_SMTP_PORT (12525; mailbox API +1); HA: SESAME_INFRA_REDIS_HA_PORT
(16380 primary, +1 replica), SESAME_INFRA_SENTINEL_PORT (26380..26382), SESAME_INFRA_REDIS_CLUSTER_PORT
(17000..17002, cluster bus +10000), SESAME_INFRA_KAFKA_HA_PORT (19192..19194; controllers +100); SESAME_INFRA_JAEGER_PORT (16686 query UI/API; OTLP HTTP +6). State, logs and pids live in .sesame/infra/.`;

const log = (msg) => console.log(msg);

function report(name, error) {
  const prefix = name && !String(error.message).startsWith(name) ? `${name}: ` : '';
  console.error(`✗ ${prefix}${error.message}`);
  if (error.name !== 'InfraError' && error.stack) console.error(error.stack);
  // process/install failures carry the log that explains them
  const logFile = error.logFile;
  const lines = logFile ? tail(logFile, 30) : '';
  if (lines) {
    console.error(`--- last 30 lines of ${path.relative(process.cwd(), logFile) || logFile} ---`);
    console.error(lines);
    console.error('---');
  }
}

function needService(arg) {
  if (![...NAMES, ...HA_NAMES, ...OPTIONAL_NAMES].includes(arg)) {
    console.error(
      `expected a server name (${[...NAMES, ...HA_NAMES].join('|')}), got ${arg ? `"${arg}"` : 'nothing'}\n\n${USAGE}`,
    );
    process.exit(2);
  }
  return arg;
}

async function main(argv) {
  const flag = (name) => {
    const at = argv.indexOf(name);
    return at < 0 ? undefined : argv[at + 1];
  };
  const topology = flag('--topology');
  const only = flag('--only');
  const withs = argv.flatMap((a, i) => (argv[i - 1] === '--with' ? [a] : []));
  for (const w of withs)
    if (!OPTIONAL_NAMES.includes(w)) {
      console.error(`--with takes one of ${OPTIONAL_NAMES.join(', ')}, got "${w}"\n\n${USAGE}`);
      return 2;
    }
  for (const [name, value] of [
    ['--topology', topology],
    ['--only', only],
  ]) {
    if (argv.includes(name) && value !== 'ha') {
      console.error(`${name} takes "ha", got ${value ? `"${value}"` : 'nothing'}\n\n${USAGE}`);
      return 2;
    }
  }
  const [cmd, arg] = argv.filter(
    (a, i) => !a.startsWith('--') && !['--topology', '--only', '--with'].includes(argv[i - 1]),
  );
  const json = argv.includes('--json');
  switch (cmd) {
    case 'up':
      try {
        await up({ log, topology, withs });
      } catch (e) {
        if (!e.failures) throw e;
        for (const f of e.failures) report(f.name, f.error);
        console.error(`✗ ${e.message}`);
        return 1;
      }
      return 0;
    case 'down':
      await down({ log, only });
      return 0;
    case 'status': {
      const rows = await status({ topology, withs });
      if (json) console.log(JSON.stringify(rows, null, 2));
      else {
        for (const r of rows) {
          const note = r.state === 'stopped' && r.portInUse ? '  (port in use by another process)' : '';
          console.log(
            `${r.name.padEnd(13)} ${r.state.padEnd(12)} pid=${String(r.pid ?? '-').padEnd(8)} port=${r.port}${note}`,
          );
        }
      }
      return 0;
    }
    case 'env': {
      const vars = env({ topology, withs });
      if (json) console.log(JSON.stringify(vars, null, 2));
      else for (const [k, v] of Object.entries(vars)) console.log(`export ${k}=${v}`);
      return 0;
    }
    case 'start': {
      const name = needService(arg);
      try {
        await start(name, { log });
      } catch (e) {
        report(name, e);
        return 1;
      }
      return 0;
    }
    case 'stop':
      await stop(needService(arg), { log });
      return 0;
    case 'help':
    case undefined:
      console.log(USAGE);
      return cmd ? 0 : 2;
    default:
      console.error(`unknown command "${cmd}"\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    report(null, e);
    process.exit(1);
  },
);
