// Opens the store in argv[2], prints "open" (or "refused: <message>"), and keeps it open until stdin closes.
import { EmbeddedStore } from '../embedded-store';

const dir = process.argv[2];
if (!dir) throw new Error('usage: hold-store <dir>');
try {
  const store = EmbeddedStore.open({ dir });
  process.stdout.write('open\n');
  process.stdin.on('end', () => store.close());
  process.stdin.resume();
} catch (error) {
  process.stdout.write(`refused: ${(error as Error).message}\n`);
}
