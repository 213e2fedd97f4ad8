/**
 * The load generator of bench/jwks.bench.ts, run as a child process over loopback: wrk by default
 * (Debian's package, ensured by scripts/tools/wrk.mjs), or autocannon with BENCH_LOADGEN=autocannon.
 *
 * Why wrk: a prepared document costs the server little more than a hello-world, so the figure is only about
 * the server when the load generator is not the limit. autocannon parses every answer in JavaScript on one
 * thread; on a 2-core machine it used 82–98% of a core on /jwks (about 4 KB and 22 headers an answer) and
 * set the req/s of Sesame and of a bare server sending the same bytes alike. wrk (one thread, C parser)
 * leaves the server its core. Both report the same figures, with the generator's own CPU share beside them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoadRun {
  rps: number;
  total: number;
  /** The load generator's CPU time over the run, in µs. */
  loadCpuUs: number;
  p99Ms: number;
  /** Non-2xx/3xx answers, socket errors and timeouts. */
  failed: number;
}

export type LoadGeneratorName = 'wrk' | 'autocannon';

export function loadGeneratorName(env = process.env): LoadGeneratorName {
  const named = env.BENCH_LOADGEN ?? 'wrk';
  if (named !== 'wrk' && named !== 'autocannon')
    throw new Error(`BENCH_LOADGEN must be wrk or autocannon, not ${named}`);
  return named;
}

function child(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (chunk) => {
      out += chunk;
    });
    c.on('error', reject);
    c.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited with ${code}`))));
  });
}

const UNIT_MS: Record<string, number> = { us: 1e-3, ms: 1, s: 1000, m: 60_000 };

/** Seconds of a `times` line ("0m1.234s 0m0.567s"): user + system. */
function timesSeconds(line: string): number {
  return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce((s, m) => s + Number(m[1]) * 60 + Number(m[2]), 0);
}

/** Reads wrk's report (with --latency) followed by the shell's `times` (its own line, then its children's). */
export function parseWrk(out: string): LoadRun {
  const num = (re: RegExp) => {
    const m = out.match(re);
    if (!m) throw new Error(`wrk's report has no ${re}:\n${out}`);
    return m;
  };
  const [, total] = num(/(\d+) requests in /);
  const [, rps] = num(/Requests\/sec:\s+([\d.]+)/);
  const [, p99, unit] = num(/^\s*99(?:\.000)?%\s+([\d.]+)(us|ms|s|m)\b/m);
  const non2xx = Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  const socket = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const errors = socket ? socket.slice(1).reduce((s, n) => s + Number(n), 0) : 0;
  const timesLines = out.trimEnd().split('\n').slice(-2);
  return {
    rps: Number(rps),
    total: Number(total),
    loadCpuUs: timesSeconds(timesLines[1] ?? '') * 1e6,
    p99Ms: Number(p99) * UNIT_MS[unit!]!,
    failed: non2xx + errors,
  };
}

/** A request other than a bare GET: wrk sends it through a Lua script, the same bytes on every request. */
export interface LoadRequest {
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** wrk's Lua script for one fixed request (values as Lua long strings, so no escaping is needed). */
export function wrkScript(request: LoadRequest): string {
  const long = (s: string) => {
    let eq = '';
    while (s.includes(`]${eq}]`)) eq += '=';
    return `[${eq}[${s}]${eq}]`;
  };
  const lines = [`wrk.method = ${long(request.method)}`, `wrk.body = ${long(request.body)}`];
  for (const [name, value] of Object.entries(request.headers))
    lines.push(`wrk.headers[ ${long(name)} ] = ${long(value)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * One run of `connections` keep-alive connections sending `request` (a GET without one) to `url` for
 * `seconds`. The autocannon script takes <url> <connections> <seconds> and GETs; a `request` with autocannon
 * is the caller's to send (bench/token.bench.ts runs autocannon's CLI for its POSTs).
 */
export async function runLoad(
  name: LoadGeneratorName,
  url: string,
  connections: number,
  seconds: number,
  autocannonScript: string,
  request?: LoadRequest,
): Promise<LoadRun> {
  if (name === 'wrk') {
    // `times` prints the shell's CPU, then its children's: wrk's own user and system time.
    const script = 'wrk "$@" && times';
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
    const dir = request ? mkdtempSync(join(tmpdir(), 'sesame-wrk-')) : undefined;
    try {
      if (dir && request) {
        writeFileSync(join(dir, 'request.lua'), wrkScript(request));
        args.push('-s', join(dir, 'request.lua'));
      }
      return parseWrk(await child('sh', ['-c', script, 'sh', ...args, url]));
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }
  if (request) throw new Error('runLoad: autocannon sends only GETs here; run its CLI for other requests');
  const r = JSON.parse(
    await child(process.execPath, [
      '--import',
      'tsx',
      autocannonScript,
      url,
      String(connections),
      String(seconds),
    ]),
  );
  return {
    rps: r.requests.average,
    total: r.requests.total,
    loadCpuUs: r.loadCpuUs,
    p99Ms: r.latency.p99,
    failed: r.non2xx + r.errors + r.timeouts,
  };
}

/** Installs wrk from Debian's packages when it is the generator and missing (scripts/tools/wrk.mjs). */
export async function ensureLoadGenerator(name: LoadGeneratorName): Promise<void> {
  if (name !== 'wrk') return;
  const tool = new URL('../scripts/tools/wrk.mjs', import.meta.url).href;
  const { ensureWrk } = (await import(tool)) as { ensureWrk: () => Promise<string> };
  await ensureWrk();
}

export function describeLoad(name: LoadGeneratorName, connections: number, seconds: number): string {
  return name === 'wrk'
    ? `wrk -t1 -c${connections} -d${seconds}s (one thread) over loopback`
    : `autocannon -c ${connections} -d ${seconds} over loopback`;
}
