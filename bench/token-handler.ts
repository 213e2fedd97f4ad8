/**
 * CPU per POST /token client_credentials inside the token service, without sockets: the service's own
 * /token handler (its raw route, as a pod serves it) is called with in-memory requests and responses,
 * `BENCH_CONCURRENCY` in flight, and the process's CPU time is divided by the requests answered. What it
 * leaves out (the kernel's loopback, node's HTTP parser, a load generator) is the same code before and after
 * a change to token, and it is what makes throughput on a shared machine noisy; what it keeps is exactly
 * the code a change to /token touches. The Directory is an in-process stub (answers are cached after the
 * first request anyway) and the KV store is token's in-memory one, as in bench/token.bench.ts.
 *
 *   node --import tsx bench/token-handler.ts
 *   BENCH_BASELINE=<worktree of another commit, bootstrapped> node --import tsx bench/token-handler.ts
 *     (BENCH_REQUESTS=3000 per round, BENCH_ROUNDS=30, BENCH_CONCURRENCY=50; BENCH_SUBJECT=<worktree> measures
 *     that checkout instead of this one)
 *
 * With BENCH_BASELINE, that checkout's token service is loaded into the same process beside this one's
 * (each resolves its own workspace packages) and rounds alternate between the two in ABBA order, so load
 * from other processes on a shared machine hits both alike; it prints the median CPU per request of each
 * and the median of the per-pair ratios.
 */
import type { RequestListener } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inMemoryRequest } from './in-memory-request';
import { median } from './support';

const requests = Number(process.env.BENCH_REQUESTS ?? 3000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const baseline = process.env.BENCH_BASELINE;
const credentials = { id: 'bench-credentials', secret: 'bench-api-secret-0123456789abcdef', tenant: 't-1' };

type TokenServiceModule = typeof import('@sesame/token-service');

/** The token service of a checkout, built as a pod builds it, with the Directory stubbed. */
async function tokenHandler(
  mod: TokenServiceModule,
): Promise<{ handle: RequestListener; stop(): Promise<void> }> {
  const config = mod.loadTokenConfig({
    SESAME_ENV: 'test',
    LOG_LEVEL: 'silent',
    SESAME_AUTH_URL: 'https://auth.bench.test',
    SESAME_KEYS_ADDR: '127.0.0.1:9', // not dialled: start() is not called, client_credentials signs nothing
    SESAME_DIRECTORY_ADDR: '127.0.0.1:9',
    SESAME_CODE_TTL_S: '900',
  });
  const service = await mod.createTokenService(config, {
    directory: {
      getClient: async () => null,
      authenticateClient: async () => null,
      authenticateApiCredentials: async (id, secret) =>
        id === credentials.id && secret === credentials.secret
          ? { tenantId: credentials.tenant, credentialsId: id }
          : null,
    },
  });
  const route = service.rawRoutes?.find((r) => r.path === '/token');
  if (!route) throw new Error('token has no raw /token route');
  // /token never hands a request on; a 404 would show up as a failed request.
  const next: RequestListener = (_req, res) => void res.writeHead(404).end();
  return { handle: (req, res) => route.handle(req, res, next), stop: () => service.stop() };
}

const body = Buffer.from(
  new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: credentials.id,
    client_secret: credentials.secret,
    scope: 'svc_admin_api',
  }).toString(),
);
const headers = {
  host: 'auth.bench.test',
  'content-type': 'application/x-www-form-urlencoded',
  'content-length': String(body.length),
};

/** One request through the handler; resolves with the status once the response ends. */
const once = (handle: RequestListener): Promise<number> =>
  inMemoryRequest({ method: 'POST', url: '/token', headers, body }, handle);

async function round(handle: RequestListener, count: number): Promise<{ cpuUs: number; failed: number }> {
  let next = 0;
  let failed = 0;
  const start = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) if ((await once(handle)) !== 200) failed++;
    }),
  );
  const used = process.cpuUsage(start);
  return { cpuUs: (used.user + used.system) / count, failed };
}

/** A checkout's token service, imported from its own tree (so it resolves that tree's workspace packages). */
const load = (root: string) =>
  import(pathToFileURL(join(root, 'services/token/src/index.ts')).href) as Promise<TokenServiceModule>;
const subject = resolve(process.env.BENCH_SUBJECT ?? join(import.meta.dirname, '..'));
const sides = [{ name: 'this', root: subject, mod: await load(subject) }];
if (baseline)
  sides.unshift({ name: 'baseline', root: resolve(baseline), mod: await load(resolve(baseline)) });
const handlers = await Promise.all(sides.map((side) => tokenHandler(side.mod)));
for (const h of handlers) await round(h.handle, 5000); // warm-up: JIT, the Directory cache
const cpu = sides.map(() => [] as number[]);
let failed = 0;
for (let i = 0; i < rounds; i++) {
  const order = sides.map((_, j) => j);
  if (i % 2) order.reverse();
  for (const j of order) {
    const r = await round(handlers[j]!.handle, requests);
    cpu[j]!.push(r.cpuUs);
    failed += r.failed;
  }
}
console.log(
  `POST /token client_credentials, handler only: ${rounds} rounds of ${requests} requests, ${concurrency} in flight`,
);
sides.forEach((side, j) =>
  console.log(
    `  ${side.name.padEnd(8)} ${median(cpu[j]!).toFixed(1).padStart(6)} µs CPU/req (median; rounds ${cpu[j]!.map((x) => x.toFixed(0)).join(' ')})  ${side.root}`,
  ),
);
if (baseline) {
  const ratio = median(cpu[1]!.map((x, i) => x / cpu[0]![i]!));
  console.log(
    `  this ÷ baseline, median of per-pair ratios: ${ratio.toFixed(3)} (${((ratio - 1) * 100).toFixed(1)}%)`,
  );
}
console.log(`  failed requests: ${failed}`);
await Promise.all(handlers.map((h) => h.stop()));
process.exit(0);
