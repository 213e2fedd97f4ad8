/**
 * A CPU profile of the token service under POST /token client_credentials load, as bench/token.bench.ts
 * serves it (runStandalone on the embedded default's in-memory KV, peers in their own process):
 *
 *   node --import tsx bench/token-profile.ts <profile directory>   (BENCH_SECONDS=10 BENCH_CONNECTIONS=50;
 *                                                                   SESAME_REDIS_URL profiles token on Redis)
 *
 * then `node --import tsx bench/cpu-profile-top.ts <profile directory>` lists the top frames.
 */
import { load, serve } from './support';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node --import tsx bench/token-profile.ts <profile directory>');
  process.exit(2);
}
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

const peers = await serve<{
  keysAddr: string;
  directoryAddr: string;
  demo: { credentialsId: string; apiSecret: string };
}>('token.peers.ts', []);
const redis = process.env.SESAME_REDIS_URL;
const token = await serve<{ url: string }>(
  'token.server.ts',
  ['token', peers.keysAddr, peers.directoryAddr, ...(redis ? [redis] : [])],
  ['--cpu-prof', `--cpu-prof-dir=${dir}`],
);
const body = new URLSearchParams({
  grant_type: 'client_credentials',
  client_id: peers.demo.credentialsId,
  client_secret: peers.demo.apiSecret,
  scope: 'svc_admin_api',
}).toString();
const headers = { 'content-type': 'application/x-www-form-urlencoded' };
const opts = { connections, seconds, headers, method: 'POST', body };
await load(token.url, [token.pid], { ...opts, seconds: 2 });
const r = await load(token.url, [token.pid], opts);
console.log(
  `client_credentials: ${r.rps.toFixed(0)} req/s, ${r.cpuUs.toFixed(1)} µs token CPU/req, failed ${r.failed}`,
);
await token.stop();
await peers.stop();
