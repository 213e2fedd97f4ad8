/**
 * GET /authorize with a valid request to its first page (the 200 HTML identify page) in requests/s, against
 * a bare node:http hello-world driven by the same load generator in the same run (issue 8: goal ≥ 0.25).
 *
 *   npm run bench -- authorize     (BENCH_SECONDS=6 BENCH_CONNECTIONS=50 BENCH_ROUNDS=3;
 *                                   BENCH_CPU_PROF=<dir> profiles the serving process;
 *                                   BENCH_BRANDED=1 brands the demo tenant first;
 *                                   BENCH_STORE=durable: on the durable engine, as `npm start` runs)
 *
 * The request is the demo app's as an RP sends it: client_id, redirect_uri, response_type code, scope
 * `openid email`, state, nonce and a PKCE S256 challenge. autocannon keeps no cookies, so every request is a
 * new visitor's: it creates an anonymous browser session (a cookie; nothing stored), a device cookie and a
 * flow, records two flow events, and renders the page with its CSP — the real cost of a first visit.
 *
 * The embedded default serves it (bench/embedded.server.ts: all six services in one process on in-memory
 * stores, the in-memory event bus feeding activity-log, as `npm start` runs them), the hello-world runs in
 * its own child (bench/token.server.ts bare), and autocannon is a child too: everything shares this
 * machine's cores. Rounds interleave the two and the ratio is the median of per-round ratios; CPU per
 * request of the serving process is printed too, as it moves far less than throughput with other load.
 *
 * A third server answers every request with the identify page exactly as /authorize sent it first (its
 * headers, cookies and HTML), recorded at start: that is node:http's share of the cost. What /authorize
 * spends beyond it is producing the page (validation, session, flow, flow events, rendering), printed next to
 * what the goal leaves for that (bare's CPU per request ÷ 0.25, less the recorded page's).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DemoSeed } from '@sesame/embedded';
import { type LoadResult, demoAuthorizeQuery, load, loadAverage, median, serve } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const GOAL = 0.25;

// BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the serving process there (node --cpu-prof).
const profile = process.env.BENCH_CPU_PROF;
// BENCH_BRANDED=1: the demo tenant has a branding (colours, corners, a logo) before the load, so the first
// page is measured with its brand (the brand's lookup cached, its stylesheet and logo URLs in the page).
const branded = process.env.BENCH_BRANDED === '1';
// BENCH_STORE=durable: the embedded default on its durable engine in a fresh temp data dir, as `npm start`
// runs it (the default, memory, keeps every store in memory).
const durable = process.env.BENCH_STORE === 'durable';
const dataDir = durable ? mkdtempSync(join(tmpdir(), 'sesame-bench-authorize-')) : undefined;
const adminKey = randomBytes(24).toString('base64url');
const embedded = await serve<{ url: string; demo: DemoSeed }>(
  'embedded.server.ts',
  // Every request comes from 127.0.0.1: the per-IP allowance of pending sign-ins (issue 42) is lifted.
  [
    JSON.stringify({
      SESAME_PENDING_FLOWS_PER_IP: '0',
      ...(branded ? { SESAME_ADMIN_KEY: adminKey, SESAME_ADMIN_BREAK_GLASS: 'on' } : {}),
    }),
    ...(dataDir ? [dataDir] : []),
  ],
  profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : [],
);
const bare = await serve<{ url: string }>('token.server.ts', ['bare']);
const { demo } = embedded;

const verifier = randomBytes(32).toString('base64url');
const authorizeUrl = new URL('/authorize', embedded.url.replace('localhost', '127.0.0.1'));
authorizeUrl.search = demoAuthorizeQuery(demo, verifier);

if (branded) {
  const branding = `${embedded.url}/api/v1/admin/tenants/${demo.tenantId}/branding`;
  const put = async (url: string, type: string, body: string) => {
    const res = await fetch(url, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': type },
      body,
    });
    if (!res.ok) throw new Error(`branding the demo tenant: ${res.status} ${await res.text()}`);
  };
  await put(
    branding,
    'application/json',
    JSON.stringify({
      displayName: 'ACME Energy',
      cornerStyle: 'pill',
      light: { accent: '#0f766e', background: '#ffffff' },
      dark: { accent: '#5eead4', background: '#042f2e' },
    }),
  );
  await put(
    `${branding}/logo`,
    'image/svg+xml',
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32"><rect width="120" height="32" rx="6" fill="#0f766e"/></svg>',
  );
}

// The request must be valid and reach the identify page, or the figures measure an error page.
const first = await fetch(authorizeUrl, { redirect: 'manual' });
const html = await first.text();
if (first.status !== 200 || !/name="email"/.test(html) || !first.headers.getSetCookie().length) {
  throw new Error(`GET /authorize did not answer the identify page: ${first.status} ${html.slice(0, 300)}`);
}
if (branded && !/class="brand-logo"/.test(html))
  throw new Error('BENCH_BRANDED: the identify page shows no brand');

// The same page, headers and cookies from a server that only sends them (bench/token.server.ts static): what
// node:http spends answering with this response, so the rest of /authorize's CPU is producing it.
const recorded: string[] = [];
for (const [name, value] of first.headers)
  if (!['set-cookie', 'content-length', 'date', 'connection', 'keep-alive'].includes(name))
    recorded.push(name, value);
for (const cookie of first.headers.getSetCookie()) recorded.push('set-cookie', cookie);
const pageFile = join(mkdtempSync(join(tmpdir(), 'sesame-bench-')), 'identify-page.json');
writeFileSync(pageFile, JSON.stringify({ headers: recorded, body: html }));
const staticPage = await serve<{ url: string }>('token.server.ts', ['static', pageFile]);

// What a browser sends on a first visit (no cookies): its User-Agent (parsed into the device facts) and
// languages (the page's locale). Both runs send the same headers.
const headers = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'accept-language': 'en-US,en;q=0.9,de;q=0.8',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
};
const opts = { connections, seconds, headers };
const show = (name: string, r: LoadResult, base?: LoadResult) =>
  console.log(
    `  ${name.padEnd(40)} ${r.rps.toFixed(0).padStart(6)} req/s  ${r.cpuUs.toFixed(0).padStart(5)} µs CPU/req  p99 ${String(r.p99Ms).padStart(4)} ms  failed ${r.failed}` +
      (base ? `  ratio ${(r.rps / base.rps).toFixed(3)} (CPU ${(base.cpuUs / r.cpuUs).toFixed(3)})` : ''),
  );

console.log(
  `authorize benchmark: autocannon -c ${connections} -d ${seconds} over loopback, ${rounds} interleaved rounds, the embedded default ${durable ? 'on its durable engine' : 'in memory'}; load average ${loadAverage()}`,
);
console.log(`  GET ${authorizeUrl.pathname}?${authorizeUrl.searchParams.toString().slice(0, 60)}…\n`);
// Warm-up: JIT, the Directory client, the page templates.
await load(bare.url, [bare.pid], { ...opts, seconds: 2 });
await load(authorizeUrl.href, [embedded.pid], { ...opts, seconds: 2 });

const ratios = {
  rps: [] as number[],
  cpu: [] as number[],
  staticRps: [] as number[],
  producing: [] as number[],
  budget: [] as number[],
};
let failed = 0;
for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round}`);
  // Alternate which side goes first, so a drift in the machine's load does not always favour one.
  const order =
    round % 2 ? (['bare', 'static', 'authorize'] as const) : (['authorize', 'static', 'bare'] as const);
  const results: Partial<Record<'bare' | 'static' | 'authorize', LoadResult>> = {};
  for (const side of order) {
    results[side] =
      side === 'bare'
        ? await load(bare.url, [bare.pid], opts)
        : side === 'static'
          ? await load(staticPage.url, [staticPage.pid], opts)
          : await load(authorizeUrl.href, [embedded.pid], opts);
  }
  const { bare: b, static: s, authorize: a } = results as Record<'bare' | 'static' | 'authorize', LoadResult>;
  show('bare node:http hello-world', b);
  show('the identify page, sent as recorded', s, b);
  show('GET /authorize → identify page (200)', a, b);
  failed += a.failed + b.failed + s.failed;
  ratios.rps.push(a.rps / b.rps);
  ratios.cpu.push(b.cpuUs / a.cpuUs);
  ratios.staticRps.push(s.rps / b.rps);
  ratios.producing.push(a.cpuUs - s.cpuUs);
  ratios.budget.push(b.cpuUs / GOAL - s.cpuUs);
}

const m = median(ratios.rps);
console.log('\nratio to bare node:http, median of rounds [per round]');
console.log(
  `  GET /authorize req/s ÷ bare req/s (goal >= ${GOAL})      ${m.toFixed(3)} ${m >= GOAL ? 'met' : 'MISSED'} [${ratios.rps.map((x) => x.toFixed(3)).join(', ')}]`,
);
console.log(
  `  CPU: bare µs/req ÷ /authorize µs/req                  ${median(ratios.cpu).toFixed(3)} [${ratios.cpu.map((x) => x.toFixed(3)).join(', ')}]`,
);
console.log(
  `  the recorded page ÷ bare req/s (node:http sending it) ${median(ratios.staticRps).toFixed(3)} [${ratios.staticRps.map((x) => x.toFixed(3)).join(', ')}]`,
);
console.log(
  `  CPU µs/req producing the page (/authorize − recorded) ${median(ratios.producing).toFixed(0)} [${ratios.producing.map((x) => x.toFixed(0)).join(', ')}]`,
);
console.log(
  `  … what the goal leaves for it (bare ÷ ${GOAL} − recorded)  ${median(ratios.budget).toFixed(0)} [${ratios.budget.map((x) => x.toFixed(0)).join(', ')}]`,
);
console.log(`  failed requests in the measured rounds: ${failed}; load average now ${loadAverage()}`);

await Promise.all([embedded.stop(), bare.stop(), staticPage.stop()]);
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
