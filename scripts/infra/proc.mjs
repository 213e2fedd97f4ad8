// Process helpers for scripts/infra: commands (with logs), apt installs, detached servers.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { InfraError, argvOf, fmtMs, isAlive, mkdirp, sleep, which, withLock } from './lib.mjs';

/** Pids of all processes (except this one) whose argv satisfies `matches`. */
export function findProcesses(matches) {
  const out = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const argv = argvOf(entry);
    if (argv?.length && matches(argv) && isAlive(Number(entry))) out.push(Number(entry));
  }
  return out;
}

/** Spawn a detached process (own process group) with stdout+stderr appended to logFile. */
export function spawnDetached(cmd, args, { cwd, env, logFile }) {
  mkdirp(path.dirname(logFile));
  try {
    if (fs.statSync(logFile).size > 20 * 1024 * 1024) fs.renameSync(logFile, `${logFile}.old`);
  } catch {
    /* new */
  }
  const fd = fs.openSync(logFile, 'a');
  fs.writeSync(fd, `\n==== ${new Date().toISOString()} starting: ${cmd} ${args.join(' ')}\n`);
  const child = spawn(cmd, args, {
    cwd,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  const state = { exited: false, code: null, signal: null, error: null };
  child.on('exit', (code, signal) => Object.assign(state, { exited: true, code, signal }));
  child.on('error', (e) => Object.assign(state, { exited: true, error: e }));
  child.unref();
  return { pid: child.pid, state };
}

/** SIGTERM the process group, wait up to timeoutMs, then SIGKILL. */
export async function terminate(pid, matches, timeoutMs) {
  const kill = (sig) => {
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        process.kill(pid, sig);
      } catch {
        /* gone */
      }
    }
  };
  if (!isAlive(pid, matches)) return 'not running';
  kill('SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid, matches)) return 'stopped';
    await sleep(100);
  }
  kill('SIGKILL');
  for (let i = 0; i < 50 && isAlive(pid, matches); i++) await sleep(100);
  return 'killed';
}

/**
 * Run a command to completion, output appended to `logFile`. While it runs,
 * prints a heartbeat through `log` every 30 s. Rejects with an InfraError carrying `logFile`.
 */
export function run(cmd, args, { cwd, env, logFile, log = () => {}, what = cmd } = {}) {
  return new Promise((resolve, reject) => {
    mkdirp(path.dirname(logFile));
    const fd = fs.openSync(logFile, 'a');
    fs.writeSync(fd, `\n$ ${cmd} ${args.join(' ')}\n`);
    const t0 = Date.now();
    let child;
    try {
      child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
    } catch (e) {
      fs.closeSync(fd);
      reject(new InfraError(`${what}: cannot run ${cmd}: ${e.message}`, { logFile }));
      return;
    }
    const beat = setInterval(() => log(`  … ${what} still running (${fmtMs(Date.now() - t0)})`), 30_000);
    const done = (err) => {
      clearInterval(beat);
      try {
        fs.closeSync(fd);
      } catch {
        /* closed */
      }
      err ? reject(err) : resolve();
    };
    child.on('error', (e) => done(new InfraError(`${what}: cannot run ${cmd}: ${e.message}`, { logFile })));
    child.on('exit', (code, sig) =>
      done(
        code === 0
          ? null
          : new InfraError(`${what} failed (${sig ? `signal ${sig}` : `exit code ${code}`})`, { logFile }),
      ),
    );
  });
}

let aptUpdated = false;
/** Make sure `bin` exists, installing Debian package `pkg` with apt-get if not. */
export async function ensureApt(bin, pkg, { log, logFile }) {
  if (which(bin)) return;
  await withLock('apt', () => aptInstall(bin, pkg, { log, logFile }));
}

async function aptInstall(bin, pkg, { log, logFile }) {
  if (which(bin)) return;
  if (!which('apt-get'))
    throw new InfraError(`${bin} is not installed and apt-get is unavailable; install ${pkg} manually`);
  if (process.getuid && process.getuid() !== 0) {
    throw new InfraError(`${bin} is not installed; run: sudo apt-get install -y ${pkg}`);
  }
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    await step(log, 'apt-get update', () =>
      run('apt-get', ['update'], { env, logFile, log, what: 'apt-get update' }),
    );
    aptUpdated = true;
  }
  await step(log, `apt-get install ${pkg}`, () =>
    run('apt-get', ['install', '-y', '--no-install-recommends', pkg], {
      env,
      logFile,
      log,
      what: `apt-get install ${pkg}`,
    }),
  );
  if (!which(bin)) throw new InfraError(`installed ${pkg} but ${bin} is still not on PATH`);
}

/** Log "→ label", run fn, log "✓ label (time)". */
export async function step(log, label, fn) {
  const t0 = Date.now();
  log(`→ ${label}`);
  const r = await fn();
  log(`✓ ${label} (${fmtMs(Date.now() - t0)})`);
  return r;
}
