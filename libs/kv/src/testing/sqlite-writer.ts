// A writer for the kill -9 test: sets keys one after another in the embedded store and prints each key once
// its write has been answered, until it is killed.
import { EmbeddedStore } from '@sesame/embedded-store';
import { SqliteKeyValueStore } from '../sqlite';

const [dir, prefix] = process.argv.slice(2);
if (!dir || !prefix) throw new Error('usage: sqlite-writer <dir> <prefix>');
const kv = new SqliteKeyValueStore(EmbeddedStore.open({ dir }), 'sesame:test:');
for (let i = 0; ; i++) {
  const key = `${prefix}:${i}`;
  await kv.set(key, 'written', { ttlMs: 3_600_000 });
  await new Promise<void>((resolve) => process.stdout.write(`${key}\n`, () => resolve()));
}
