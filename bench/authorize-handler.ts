/**
 * CPU per GET /authorize first visit inside the embedded platform, without sockets: auth's raw /authorize
 * route (as the embedded launcher serves it) is called with in-memory requests and responses, `BENCH_CONCURRENCY`
 * in flight, and the process's CPU time (the route, the in-memory event bus and activity-log folding the flow
 * events, GC) is divided by the pages answered. It leaves out the kernel's loopback, node's HTTP parser and the
 * load generator, which make throughput on a shared machine noisy; it keeps the code a change to /authorize
 * touches. bench/authorize.bench.ts remains the measure of the goal.
 *
 *   node --import tsx bench/authorize-handler.ts   (BENCH_REQUESTS=2000 per round, BENCH_ROUNDS=10,
 *                                                  BENCH_CONCURRENCY=50; node --cpu-prof for a profile)
 */
import { createHash, randomBytes } from 'node:crypto';
import { IncomingMessage, type RequestListener, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { startEmbedded } from '@sesame/embedded';
import { median } from './support';

const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);

const platform = await startEmbedded({
  port: 0,
  seedDemo: true,
  env: { LOG_LEVEL: 'silent', SESAME_ENV: 'test' },
});
const demo = platform.demo!;
const route = platform.services.auth?.rawRoutes?.find((r) => r.method === 'GET' && r.path === '/authorize');
if (!route) throw new Error('auth has no raw GET /authorize route');
let fellThrough = 0;
const express: RequestListener = (_req, res) => {
  fellThrough++;
  res.writeHead(500).end();
};

const query = new URLSearchParams({
  client_id: demo.clientId,
  redirect_uri: demo.redirectUri,
  response_type: 'code',
  scope: 'openid email',
  state: randomBytes(16).toString('base64url'),
  nonce: randomBytes(16).toString('base64url'),
  code_challenge: createHash('sha256').update('verifier').digest('base64url'),
  code_challenge_method: 'S256',
});
const socket = new Socket(); // never connected: gives the request a remoteAddress below
Object.defineProperty(socket, 'remoteAddress', { value: '127.0.0.1' });

/** One first visit through the route; resolves with the status once the response ends. */
function once(): Promise<number> {
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = `/authorize?${query}`;
  req.headers = {
    host: '127.0.0.1',
    'user-agent':
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'accept-language': 'en-US,en;q=0.9,de;q=0.8',
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  };
  req.push(null);
  const res = new ServerResponse(req);
  return new Promise((resolve) => {
    const end = res.end.bind(res);
    res.end = ((chunk: unknown) => {
      end(chunk as string);
      resolve(res.statusCode);
      return res;
    }) as typeof res.end;
    route!.handle(req, res, express);
  });
}

async function round(count: number): Promise<number> {
  let next = 0;
  const start = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) if ((await once()) !== 200) throw new Error('not the identify page');
    }),
  );
  // Let the bus deliver and activity-log fold this round's events: they are part of a first visit's cost.
  await new Promise((r) => setTimeout(r, 50));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

await round(3000); // warm-up: JIT, the Directory cache
const cpu: number[] = [];
for (let i = 0; i < rounds; i++) cpu.push(await round(requests));
console.log(
  `GET /authorize first visit, raw route only (embedded, in-memory bus and activity-log): ${rounds} rounds of ${requests}, ${concurrency} in flight`,
);
console.log(
  `  CPU per request: median ${median(cpu).toFixed(0)} µs [${cpu.map((c) => c.toFixed(0)).join(', ')}]; handed to express: ${fellThrough}`,
);
await platform.stop();
process.exit(0);
