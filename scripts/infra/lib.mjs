// Shared helpers for scripts/infra: paths, ports, processes, commands, locks.
// Node builtins only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const INFRA_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(INFRA_DIR, '..', '..');
export const RUNTIME_DIR = path.join(REPO_ROOT, '.sesame', 'infra');
export const CACHE_DIR =
  process.env.SESAME_INFRA_CACHE ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'sesame-infra');
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
  const smtp = portFromEnv('SESAME_INFRA_SMTP_PORT', 12525);
  if (smtp === 65535) throw new InfraError('SESAME_INFRA_SMTP_PORT=65535 leaves no port for the mailbox API');
  return {
    redis: portFromEnv('SESAME_INFRA_REDIS_PORT', 16379),
    kafka,
    kafkaController: kafka + 1,
    mongo: portFromEnv('SESAME_INFRA_MONGO_PORT', 27117),
    smtp,
    smtpApi: smtp + 1,
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
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
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
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      /* next */
    }
  }
  return null;
}

// ---------------------------------------------------------------- pids & locks

/** argv of a process from /proc (null if unreadable). */
export function argvOf(pid) {
  const raw = readText(`/proc/${pid}/cmdline`);
  return raw === null ? null : raw.split('\0').filter(Boolean);
}

/** True when `pid` is a live (non-zombie) process and, if given, `matches(argv)` accepts its cmdline. */
export function isAlive(pid, matches) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code !== 'EPERM') return false;
  }
  const stat = readText(`/proc/${pid}/stat`);
  if (stat) {
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state === 'Z' || state === 'X') return false;
  }
  if (matches) {
    const argv = argvOf(pid);
    // A process that is exiting has an empty command line: still alive, nothing to match.
    if (argv?.length && !matches(argv)) return false;
  }
  return true;
}

export function readPid(file) {
  const n = Number.parseInt(readText(file) || '', 10);
  return Number.isInteger(n) && n > 0 ? n : null;
}

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
      // an empty file is a lock being written right now, unless it is old
      const emptyAndOld =
        !owner && Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 5000;
      if (emptyAndOld || owner === process.pid || (owner && !isAlive(owner))) {
        try {
          fs.unlinkSync(file);
        } catch {
          /* raced */
        }
        continue;
      }
      if (Date.now() > deadline) {
        throw new InfraError(`timed out waiting for lock ${file} (held by pid ${owner || '?'})`);
      }
      await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    try {
      if (readPid(file) === process.pid) fs.unlinkSync(file);
    } catch {
      /* gone */
    }
  }
}
