/**
 * A CPU profile of one static document under load, served as bench/jwks.bench.ts serves it (runStandalone:
 * fast routes ahead of express) in this process, the load generator of jwks.bench.ts (wrk, or
 * BENCH_LOADGEN=autocannon) in a child process:
 *
 *   node --import tsx bench/jwks-profile.ts <profile file> [jwks|discovery|bare|bare-jwks]  (BENCH_SECONDS=10
 *                                                                                   BENCH_CONNECTIONS=32)
 *
 * then `node --import tsx bench/cpu-profile-top.ts <profile file>` lists the top frames (`bare`: a node:http
 * hello-world; `bare-jwks`: a bare node:http handler writing the very answer /jwks sends, as jwks.bench.ts's
 * "same answer"). The profile covers the measured load only: it starts after start-up and a 2 s warm-up
 * (through node:inspector), so module loading does not crowd the frames of the request path. It prints the
 * requests served and the process's CPU per request over the profiled run, to turn the shares into µs.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAuthService, loadAuthConfig } from '@sesame/auth-service';
import { createJwksService, loadJwksConfig } from '@sesame/jwks-service';
import { runStandalone } from '@sesame/platform';
import { type BareServer, bareHelloWorld, bareSameAnswer } from './jwks-same-answer';
import { ensureLoadGenerator, loadGeneratorName, runLoad } from './load-generator';

const file = process.argv[2];
if (!file) {
  console.error(
    'usage: node --import tsx bench/jwks-profile.ts <profile file> [jwks|discovery|bare|bare-jwks]',
  );
  process.exit(2);
}
const which = process.argv[3] ?? 'jwks';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const loadScript = join(dirname(fileURLToPath(import.meta.url)), 'jwks-load.ts');
const env = { SESAME_ENV: 'test', LOG_LEVEL: 'silent', HTTP_PORT: '0', GRPC_PORT: '0' };
const options = { httpPort: 0, grpcPort: 0, host: '127.0.0.1', shutdownTimeoutMs: 1000 };

let url: string;
let stop: () => Promise<unknown>;
if (which === 'bare' || which === 'bare-jwks') {
  let server: BareServer;
  if (which === 'bare') server = await bareHelloWorld();
  else {
    const jwks = await runStandalone(await createJwksService(loadJwksConfig(env)), options);
    server = await bareSameAnswer(`http://127.0.0.1:${jwks.httpPort}/jwks`);
    await jwks.stop();
  }
  url = server.url;
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
/** Runs the load generator jwks.bench.ts runs (wrk, or BENCH_LOADGEN); resolves with the requests it completed. */
const generator = loadGeneratorName();
await ensureLoadGenerator(generator);
const run = async (forSeconds: number) =>
  (await runLoad(generator, url, connections, forSeconds, loadScript)).total;
await run(2);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
const cpu = process.cpuUsage();
const requests = await run(seconds);
const used = process.cpuUsage(cpu);
const { profile } = await session.post('Profiler.stop');
console.log(
  `${which}: ${requests} requests in ${seconds} s, ${((used.user + used.system) / requests).toFixed(1)} µs CPU per request (profiler on)`,
);
writeFileSync(file, JSON.stringify(profile));
session.disconnect();
await stop();
process.exit(0);
