/**
 * Child process of bench/token.bench.ts: what the benchmarked token service needs, kept off its cores'
 * event loop — the real jwks (Keys stream) and mgmt (Directory) services, here via the embedded launcher
 * on in-memory stores, seeded with the demo tenant. Prints one JSON line with the gRPC addresses, demo
 * credentials, and the platform's URL and admin key (to register more applications), then runs until stdin
 * closes.
 */
import { startEmbedded } from '@sesame/embedded';

const platform = await startEmbedded({
  port: 0,
  seedDemo: true,
  env: { LOG_LEVEL: 'silent', SESAME_ENV: 'test' },
});
process.stdout.write(
  `${JSON.stringify({
    keysAddr: platform.grpcAddresses.jwks,
    directoryAddr: platform.grpcAddresses.mgmt,
    demo: platform.demo,
    url: platform.url,
    adminKey: platform.adminKey,
  })}\n`,
);
process.stdin.resume();
process.stdin.on('end', async () => {
  await platform.stop();
  process.exit(0);
});
