/**
 * A CPU profile of one static document under load, served as bench/jwks.bench.ts serves it (runStandalone:
 * fast routes ahead of express) in this process, autocannon in a child process:
 *
 *   node --import tsx bench/jwks-profile.ts <profile file> [jwks|discovery|bare]   (BENCH_SECONDS=10
 *                                                                                   BENCH_CONNECTIONS=50)
 *
 * then `node --import tsx bench/cpu-profile-top.ts <profile file>` lists the top frames (`bare`: a node:http
 * hello-world). The profile covers the measured load only: it starts after start-up and a 2 s warm-up (through
 * node:inspector), so module loading does not crowd the frames of the request path.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { createAuthService, loadAuthConfig } from '@sesame/auth-service';
import { createJwksService, loadJwksConfig } from '@sesame/jwks-service';
import { runStandalone } from '@sesame/platform';

const file = process.argv[2];
if (!file) {
  console.error('usage: node --import tsx bench/jwks-profile.ts <profile file> [jwks|discovery|bare]');
  process.exit(2);
}
const which = process.argv[3] ?? 'jwks';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const autocannon = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const env = { SESAME_ENV: 'test', LOG_LEVEL: 'silent', HTTP_PORT: '0', GRPC_PORT: '0' };
const options = { httpPort: 0, grpcPort: 0, host: '127.0.0.1', shutdownTimeoutMs: 1000 };

let url: string;
let stop: () => Promise<unknown>;
if (which === 'bare') {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('hello world');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  stop = async () => server.close();
} else if (which === 'discovery') {
  const auth = await runStandalone(
    await createAuthService(loadAuthConfig({ ...env, SESAME_AUTH_URL: 'https://auth.example.test' })),
    options,
  );
  url = `http://127.0.0.1:${auth.httpPort}/.well-known/openid-configuration`;
  stop = () => auth.stop();
} else {
  const jwks = await runStandalone(await createJwksService(loadJwksConfig(env)), options);
  url = `http://127.0.0.1:${jwks.httpPort}/jwks`;
  stop = () => jwks.stop();
}
const run = async (forSeconds: number) => {
  const args = [autocannon, '-c', String(connections), '-d', String(forSeconds), url];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  await new Promise((r) => child.on('exit', r));
};
await run(2);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
await run(seconds);
const { profile } = await session.post('Profiler.stop');
writeFileSync(file, JSON.stringify(profile));
session.disconnect();
await stop();
process.exit(0);
