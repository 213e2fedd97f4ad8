// Shared helpers for scripts/infra: paths, ports, processes, commands, locks.
// Node builtins only.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const INFRA_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(INFRA_DIR, '..', '..');
export const RUNTIME_DIR = path.join(REPO_ROOT, '.sesame', 'infra');
export const CACHE_DIR = process.env.SESAME_INFRA_CACHE
  || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'sesame-infra');
export const HOST = '127.0.0.1';

function portFromEnv(name, dflt) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0 || n > 65535) throw new InfraError(`${name}=${raw} is not a valid port`);
  return n;
}

export function ports() {
  const kafka = portFromEnv('SESAME_INFRA_KAFKA_PORT', 19092);
  return {
    redis: portFromEnv('SESAME_INFRA_REDIS_PORT', 16379),
    kafka,
    kafkaController: kafka + 1,
    mongo: portFromEnv('SESAME_INFRA_MONGO_PORT', 27117),
  };
}

export class InfraError extends Error {
  constructor(message, { logFile, cause } = {}) {
    super(message, cause ? { cause } : undefined);
    this.name = 'InfraError';
    if (logFile) this.logFile = logFile;
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function fmtMs(ms) {
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

export function mkdirp(dir) {
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export function readText(file) {
  try { return fs.readFileSync(file, 'utf8'); } catch { return null; }
}

/** Last `n` lines of a file ('' if missing). */
export function tail(file, n = 30) {
  const text = readText(file);
  if (!text) return '';
  const lines = text.replace(/\n+$/, '').split('\n');
  return lines.slice(-n).join('\n');
}

/** Absolute path of `bin` on PATH, or null. */
export function which(bin) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, bin);
    try { fs.accessSync(p, fs.constants.X_OK); if (fs.statSync(p).isFile()) return p; } catch { /* next */ }
  }
  return null;
}

/**
 * Run a command to completion, output appended to `logFile`. While it runs,
 * prints a heartbeat through `log` every 30 s. Rejects with the log tail.
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
    const done = (err) => { clearInterval(beat); try { fs.closeSync(fd); } catch { /* closed */ } err ? reject(err) : resolve(); };
    child.on('error', (e) => done(new InfraError(`${what}: cannot run ${cmd}: ${e.message}`, { logFile })));
    child.on('exit', (code, sig) => done(code === 0 ? null
      : new InfraError(`${what} failed (${sig ? `signal ${sig}` : `exit code ${code}`})`, { logFile })));
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
  if (!which('apt-get')) throw new InfraError(`${bin} is not installed and apt-get is unavailable; install ${pkg} manually`);
  if (process.getuid && process.getuid() !== 0) {
    throw new InfraError(`${bin} is not installed; run: sudo apt-get install -y ${pkg}`);
  }
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    await step(log, 'apt-get update', () => run('apt-get', ['update'], { env, logFile, log, what: 'apt-get update' }));
    aptUpdated = true;
  }
  await step(log, `apt-get install ${pkg}`, () =>
    run('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env, logFile, log, what: `apt-get install ${pkg}` }));
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

// ---------------------------------------------------------------- processes

/** argv of a process from /proc (null if unreadable). */
export function argvOf(pid) {
  const raw = readText(`/proc/${pid}/cmdline`);
  return raw === null ? null : raw.split('\0').filter(Boolean);
}

/** True when `pid` is a live (non-zombie) process and, if given, `matches(argv)` accepts its cmdline. */
export function isAlive(pid, matches) {
  if (!pid) return false;
  try { process.kill(pid, 0); } catch (e) { if (e.code !== 'EPERM') return false; }
  const stat = readText(`/proc/${pid}/stat`);
  if (stat) {
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state === 'Z' || state === 'X') return false;
  }
  if (matches) {
    const argv = argvOf(pid);
    if (argv !== null && !matches(argv)) return false;
  }
  return true;
}

/** Pids of all processes (except this one) whose argv satisfies `matches`. */
export function findProcesses(matches) {
  const out = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const argv = argvOf(entry);
    if (argv && argv.length && matches(argv) && isAlive(Number(entry))) out.push(Number(entry));
  }
  return out;
}

export function readPid(file) {
  const n = Number.parseInt(readText(file) || '', 10);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** Spawn a detached process (own process group) with stdout+stderr appended to logFile. */
export function spawnDetached(cmd, args, { cwd, env, logFile }) {
  mkdirp(path.dirname(logFile));
  try { if (fs.statSync(logFile).size > 20 * 1024 * 1024) fs.renameSync(logFile, `${logFile}.old`); } catch { /* new */ }
  const fd = fs.openSync(logFile, 'a');
  fs.writeSync(fd, `\n==== ${new Date().toISOString()} starting: ${cmd} ${args.join(' ')}\n`);
  const child = spawn(cmd, args, {
    cwd, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', fd, fd],
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
    try { process.kill(-pid, sig); } catch { try { process.kill(pid, sig); } catch { /* gone */ } }
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

// ---------------------------------------------------------------- network

/** Resolve true if something accepts a TCP connection on host:port. */
export function portOpen(port, host = HOST, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host });
    const finish = (ok) => { sock.destroy(); resolve(ok); };
    sock.setTimeout(timeoutMs, () => finish(false));
    sock.once('connect', () => finish(true));
    sock.once('error', () => finish(false));
  });
}

/**
 * Open a socket, write `request`, collect bytes until `isComplete(buf)` says
 * the reply is whole, resolve with the buffer. Rejects on error/timeout.
 */
export function exchange(port, request, isComplete, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ port, host: HOST });
    let buf = Buffer.alloc(0);
    const finish = (err, val) => { sock.destroy(); err ? reject(err) : resolve(val); };
    sock.setTimeout(timeoutMs, () => finish(new Error('timeout')));
    sock.once('error', (e) => finish(e));
    sock.once('connect', () => sock.write(request));
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (isComplete(buf)) finish(null, buf);
    });
    sock.once('end', () => finish(new Error('connection closed')));
  });
}

// ---------------------------------------------------------------- locks

const inProcess = new Map();

/**
 * Lock `name` within this process (promise chain) and across processes
 * (`<RUNTIME_DIR>/locks/<name>.lock` holding the owner pid; dead owners are broken).
 */
export function withLock(name, fn, timeoutMs = 15 * 60_000) {
  const prev = inProcess.get(name) || Promise.resolve();
  const next = prev.catch(() => {}).then(() => fileLock(name, fn, timeoutMs));
  inProcess.set(name, next);
  return next;
}

async function fileLock(name, fn, timeoutMs) {
  const file = path.join(mkdirp(path.join(RUNTIME_DIR, 'locks')), `${name}.lock`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const owner = readPid(file);
      if (!owner || owner === process.pid || !isAlive(owner)) { try { fs.unlinkSync(file); } catch { /* raced */ } continue; }
      if (Date.now() > deadline) throw new InfraError(`timed out waiting for lock ${file} (held by pid ${owner})`);
      await sleep(250);
    }
  }
  try { return await fn(); } finally { try { if (readPid(file) === process.pid) fs.unlinkSync(file); } catch { /* gone */ } }
}
