import { run } from './cli';
import { terminalConfirm } from './store-commands';

const code = await run(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  confirm: terminalConfirm(),
});
process.exitCode = code;
