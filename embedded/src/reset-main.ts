import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LauncherArgsError, parseLauncherArgs, resetData, storeChoice, terminalConfirm } from './data-dir';

/**
 * `npm run reset -- [--data-dir DIR] [--yes]`: deletes the embedded default's data directory and the demo
 * file, after asking (refused without a terminal unless --yes, and while a Sesame holds the store).
 */
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
try {
  const args = parseLauncherArgs(process.argv.slice(2));
  if (args.memory || args.fresh || args.https)
    throw new LauncherArgsError('reset takes --data-dir and --yes only');
  const choice = storeChoice(args, { ...process.env, SESAME_STORES: 'embedded' }, repoRoot);
  const dataDir = choice.kind === 'embedded' ? choice.dir : join(repoRoot, '.sesame/data');
  const demoFile = process.env.SESAME_DEMO_FILE || join(repoRoot, '.sesame/demo.json');
  const outcome = await resetData({ dataDir, demoFile, yes: args.yes, confirm: terminalConfirm() });
  const said = {
    deleted: `Deleted ${dataDir} and ${demoFile}; the next npm start seeds a new demo tenant`,
    declined: 'Nothing deleted',
    nothing: `Nothing to delete: no ${dataDir} and no ${demoFile}`,
  }[outcome];
  process.stdout.write(`${said}\n`);
  process.exitCode = outcome === 'declined' ? 1 : 0;
} catch (err) {
  process.stderr.write(`sesame: ${(err as Error).message}\n`);
  process.exitCode = err instanceof LauncherArgsError ? 1 : 70;
}
