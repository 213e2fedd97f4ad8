/**
 * A flood of sign-in starts against the embedded default (issue 42): N GET /authorize that never go further,
 * from many addresses, while one person starts a sign-in and types their address. Prints the serving
 * process's RSS before, at its peak and after, the answers by status (no 5xx may occur), and whether the
 * person's sign-in is still there after the flood (it must be: a flood never evicts an identified flow).
 *
 *   npm run bench -- authorize-flood     (FLOOD_REQUESTS=200000 FLOOD_CONCURRENCY=32 FLOOD_ADDRESSES=10000;
 *                                         FLOOD_ENV='{"SESAME_PENDING_FLOWS_MAX":"…"}' adds environment,
 *                                         FLOOD_NODE_ARGS='--max-old-space-size=…' node options)
 *
 * The platform runs as `npm start` runs it (bench/embedded.server.ts on a fresh data directory: the durable
 * engine, short-lived state in memory, V8 tuned as its main tunes it). Requests come through a trusted proxy with X-Forwarded-For drawn
 * from FLOOD_ADDRESSES addresses, as a distributed flood would: each address stays within the per-IP
 * allowance, so the pending caps (SESAME_PENDING_FLOWS_PER_TENANT_MAX, SESAME_PENDING_FLOWS_MAX) are what bound
 * memory. With FLOOD_ADDRESSES=1 the allowance answers 429 instead.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DemoSeed } from '@sesame/embedded';
import { demoAuthorizeQuery, loadAverage, serve } from './support';

const total = Number(process.env.FLOOD_REQUESTS ?? 200_000);
const concurrency = Number(process.env.FLOOD_CONCURRENCY ?? 32);
const addresses = Number(process.env.FLOOD_ADDRESSES ?? 10_000);
const extraEnv = JSON.parse(process.env.FLOOD_ENV ?? '{}') as Record<string, string>;
// FLOOD_NODE_ARGS='--max-old-space-size=256': node options of the serving process (its V8 heap's limit).
const nodeArgs = (process.env.FLOOD_NODE_ARGS ?? '').split(' ').filter(Boolean);

const dataDir = mkdtempSync(join(tmpdir(), 'sesame-flood-'));
// BENCH_AS_MAIN: V8 tuned as `npm start` tunes it (embedded/src/main.ts). Without it the same flood kept more
// garbage in the old generation: RSS 835 MB after 100,000 starts against 680 MB (bench/authorize-memory.ts).
const embedded = await serve<{ url: string; demo: DemoSeed }>(
  'embedded.server.ts',
  [JSON.stringify({ SESAME_TRUSTED_PROXIES: '127.0.0.1/32', ...extraEnv }), dataDir],
  nodeArgs,
  { BENCH_AS_MAIN: '1' },
);
const base = new URL(embedded.url.replace('localhost', '127.0.0.1'));
const { demo } = embedded;
const query = demoAuthorizeQuery(demo);
const path = `/authorize?${query}`;
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

/** The serving process's resident set and its peak so far (/proc), in MB. */
function memory(): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${embedded.pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

/** One GET or POST; resolves with status, Set-Cookie and body (read to the end, so the socket is reused). */
function send(
  target: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; cookies: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: base.hostname, port: base.port, path: target, method: body ? 'POST' : 'GET', headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            cookies: (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const browserHeaders = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'accept-language': 'en-US,en;q=0.9',
};
const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/** A person's start and typed address: the path of their flow, its cookies. */
async function personTypes(email: string) {
  const first = await send(path, { ...browserHeaders, 'x-forwarded-for': '192.0.2.10' });
  const action = /<form method="post" action="([^"]+)"/.exec(first.body)?.[1] ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(first.body)?.[1] ?? '';
  const cookie = first.cookies.join('; ');
  const typed = await send(
    action,
    {
      ...browserHeaders,
      'x-forwarded-for': '192.0.2.10',
      cookie,
      'content-type': 'application/x-www-form-urlencoded',
    },
    new URLSearchParams({ csrf, email }).toString(),
  );
  if (first.status !== 200 || typed.status !== 303)
    throw new Error(`the person could not start: ${first.status}, ${typed.status}`);
  return { flow: action.replace(/\/email$/, ''), cookie };
}

// Warm-up (JIT, templates, the client cache), then the figures start.
for (let i = 0; i < 200; i++) await send(path, { ...browserHeaders, 'x-forwarded-for': addressOf(i) });
const before = memory();
console.log(
  `authorize flood: ${total} GET /authorize, ${concurrency} at a time, from ${addresses} addresses; load average ${loadAverage()}`,
);
console.log(`  RSS before: ${before.rss} MB`);

const statuses = new Map<number, number>();
let sent = 0;
let person: Awaited<ReturnType<typeof personTypes>> | undefined;
let peak = before.rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, memory().rss);
}, 250);
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (sent < total) {
      const i = sent++;
      if (i === Math.floor(total / 10)) person = await personTypes('flood-survivor@example.com');
      const answer = await send(path, { ...browserHeaders, 'x-forwarded-for': addressOf(i % addresses) });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (i > 0 && i % 50_000 === 0) console.log(`  ${i} sent, RSS ${memory().rss} MB`);
    }
  }),
);
clearInterval(sampler);
const seconds = (performance.now() - started) / 1000;
const after = memory();
const survivor = person
  ? await send(person.flow, { ...browserHeaders, 'x-forwarded-for': '192.0.2.10', cookie: person.cookie })
  : undefined;
const fivexx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
console.log(`  ${total} requests in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)} req/s)`);
console.log(`  answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
console.log(`  RSS after: ${after.rss} MB, peak ${Math.max(peak, after.rss)} MB (VmHWM ${after.peak} MB)`);
// Of the resident set: anonymous memory (heaps: V8's, SQLite's, the allocator's) and file pages (mapped code, WAL).
const rollup = readFileSync(`/proc/${embedded.pid}/smaps_rollup`, 'utf8');
const mb = (name: string) =>
  Math.round(Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0) / 1024);
console.log(`  of it anonymous ${mb('Anonymous')} MB, file-backed ${mb('Rss') - mb('Anonymous')} MB`);
console.log(`  5xx answers: ${fivexx}`);
console.log(`  the person who typed their address during the flood: their flow answers ${survivor?.status}`);
console.log(`  load average now ${loadAverage()}`);
agent.destroy();
await embedded.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(fivexx === 0 && survivor?.status === 200 ? 0 : 1);
