// `npm run example`: the sample app on http://localhost:3000, the demo application's redirect URI.
import { ExampleConfigError, loadExampleConfig, startExampleRp } from './server';

const say = (line: string) => process.stdout.write(`${line}\n`);
try {
  const config = loadExampleConfig();
  const rp = await startExampleRp(config, (line) => say(`example: ${line}`));
  say(`Sesame sample app on ${rp.url} (issuer ${config.issuer}, client ${config.clientId})`);
  say(`  open ${rp.url} and click Sign in; sign-in codes are in ${config.issuer}/dev/mail`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void rp.close().then(() => process.exit(0)));
} catch (err) {
  if (err instanceof ExampleConfigError) {
    process.stderr.write(`example: ${err.message}\n`);
    process.exit(78);
  }
  const listen = err as NodeJS.ErrnoException;
  if (listen.code === 'EADDRINUSE') {
    process.stderr.write(`example: the port is taken (${listen.message}); stop what listens there first\n`);
    process.exit(1);
  }
  throw err;
}
