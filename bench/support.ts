/**
 * What the benches share: servers under test as child processes, the load (autocannon or wrk as a child, or
 * pacedLoad's node:http client held to one rate), CPU time of processes from /proc, and small statistics.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type LoadRequest, runLoad } from './load-generator';

const here = import.meta.dirname;
const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** CPU time (user + system, µs) the processes used so far, from /proc (Linux). */
export function cpuOf(pids: number[]): number {
  const { user, system } = cpuSplitOf(pids);
  return user + system;
}

/** CPU time of processes, user and system apart, in microseconds (Linux /proc, 100 ticks/s). */
export function cpuSplitOf(pids: number[]): { user: number; system: number } {
  let user = 0;
  let system = 0;
  for (const pid of pids) {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    user += (Number(fields[11]) / 100) * 1e6; // utime
    system += (Number(fields[12]) / 100) * 1e6; // stime
  }
  return { user, system };
}

/** CPU per request between two cpuSplitOf readings: the total and its system (kernel) part, in µs. */
export function cpuPerRequest(
  before: { user: number; system: number },
  after: { user: number; system: number },
  requests: number,
): { cpuUs: number; systemUs: number } {
  const n = Math.max(1, requests);
  const system = after.system - before.system;
  return { cpuUs: (after.user - before.user + system) / n, systemUs: system / n };
}

/** Resident set size of a process in bytes, from /proc (Linux). */
export const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

export interface Served {
  child: ChildProcess;
  pid: number;
  /** Closes the child's stdin (it stops cleanly) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts a long-running bench/<script> child that prints one JSON line when it serves; `env` adds to ours. */
export async function serve<T>(
  script: string,
  args: string[],
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<T & Served> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(here, script), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} ${args[0] ?? ''} exited with ${code}`)));
  });
  return {
    ...(JSON.parse(line) as T),
    child,
    pid: child.pid!,
    stop: async () => {
      child.stdin?.end();
      await exited;
    },
  };
}

export interface LoadResult {
  rps: number;
  total: number;
  p99Ms: number;
  /** non-2xx answers, errors and timeouts. */
  failed: number;
  /** CPU (user + system) of the serving processes per request, in microseconds. */
  cpuUs: number;
  /** The system (kernel) part of cpuUs: sockets and other system calls made for the requests. */
  systemUs: number;
}

/** autocannon (a child process) against one URL for `seconds`; CPU counted for `pids`. */
export async function load(
  url: string,
  pids: number[],
  opts: {
    connections: number;
    seconds: number;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
  },
): Promise<LoadResult> {
  const args = [autocannonBin, '-j', '-c', String(opts.connections), '-d', String(opts.seconds)];
  for (const [name, value] of Object.entries(opts.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (opts.method) args.push('-m', opts.method);
  if (opts.body !== undefined) args.push('-b', opts.body);
  args.push(url);
  const cpu = cpuSplitOf(pids);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`autocannon exited with ${code}`)),
    );
  });
  const after = cpuSplitOf(pids);
  const r = JSON.parse(out) as {
    requests: { average: number; total: number };
    latency: { p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  return {
    rps: r.requests.average,
    total: r.requests.total,
    p99Ms: r.latency.p99,
    failed: r.non2xx + r.errors + r.timeouts,
    ...cpuPerRequest(cpu, after, r.requests.total),
  };
}

/** wrk (one thread, a Lua script for a `request` other than a GET) against one URL; CPU counted for `pids`. */
export async function wrkLoad(
  url: string,
  pids: number[],
  opts: { connections: number; seconds: number; request?: LoadRequest },
): Promise<LoadResult> {
  const before = cpuSplitOf(pids);
  const r = await runLoad('wrk', url, opts.connections, opts.seconds, '', opts.request);
  const after = cpuSplitOf(pids);
  return {
    rps: r.rps,
    total: r.total,
    p99Ms: r.p99Ms,
    failed: r.failed,
    ...cpuPerRequest(before, after, r.total),
  };
}

/** Request i's headers (beside the form content type) and form body, for pacedLoad. */
export type PacedRequests = (i: number) => { headers?: Record<string, string>; body: string };

/**
 * A closed loop of `connections` keep-alive form POSTs from this process to `target` for `seconds`, held to
 * `rate` requests per second (request i is due i/rate seconds after the start; a server that falls behind
 * just runs late; 0: as fast as it answers); CPU counted for `pids`. At saturation a slower server serves
 * fewer requests per event-loop turn and per socket wakeup, so each request carries more of the turn's fixed
 * cost and its extra CPU reads above the work it adds: two servers compared at one rate below both their
 * limits pay the same fixed costs, and their difference in CPU per request is the work one adds.
 */
export async function pacedLoad(
  target: URL,
  pids: number[],
  opts: { connections: number; seconds: number; rate: number; requests: PacedRequests },
): Promise<Omit<LoadResult, 'p99Ms'>> {
  const { connections, seconds, rate, requests } = opts;
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const until = Date.now() + seconds * 1000;
  let sent = 0;
  let failed = 0;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const { headers, body } = requests(i);
      const req = request(target, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
      req.on('response', (res) => {
        if (res.statusCode !== 200) failed++;
        res.resume().on('end', resolve);
      });
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end(body);
    });
  const cpu = cpuSplitOf(pids);
  const started = Date.now();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const i = sent++;
        const wait = rate > 0 ? started + (i * 1000) / rate - Date.now() : 0;
        if (wait > 0) await sleep(wait);
        await one(i);
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  return { rps: sent / elapsed, total: sent, failed, ...cpuPerRequest(cpu, cpuSplitOf(pids), sent) };
}

/** The median: the middle value, or the mean of the two middle values of an even count. */
export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The q-quantile (0..1) of a sample, nearest rank. */
export function quantile(xs: number[], q: number): number {
  if (!xs.length) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** The 1-, 5- and 15-minute load averages, as `uptime` prints them. */
export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(', ');

/**
 * The query of the demo app's first GET /authorize as an RP sends it (code flow, PKCE S256 over `verifier`,
 * fresh state and nonce): what the authorize benches start every sign-in with.
 */
export function demoAuthorizeQuery(
  demo: { clientId: string; redirectUri: string },
  verifier = randomBytes(32).toString('base64url'),
): string {
  return new URLSearchParams({
    client_id: demo.clientId,
    redirect_uri: demo.redirectUri,
    response_type: 'code',
    scope: 'openid email',
    state: randomBytes(16).toString('base64url'),
    nonce: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
}
