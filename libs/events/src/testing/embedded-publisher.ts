// A process for the kill -9 test: publishes events one after another on the embedded bus, prints each value
// once its publish has resolved, and consumes them in a durable group whose handler writes each value to a
// table (committed with the batch) — until it is killed. The consumer is slower than the publisher, so a kill
// always finds events published and not yet consumed.
import { EmbeddedStore } from '@sesame/embedded-store';
import { createEmbeddedEventBus } from '../embedded';

const [dir, prefix] = process.argv.slice(2);
if (!dir || !prefix) throw new Error('usage: embedded-publisher <dir> <prefix>');
const engine = EmbeddedStore.open({ dir });
engine.db.exec('CREATE TABLE IF NOT EXISTS test_consumed (value TEXT NOT NULL) STRICT');
const consumed = engine.db.prepare<[string]>('INSERT INTO test_consumed (value) VALUES (?)');
const bus = createEmbeddedEventBus(engine);
await bus.consumer({ groupId: 'durable', topics: ['t'], maxBatchSize: 7 }).start(async (batch) => {
  await new Promise((resolve) => setTimeout(resolve, 10));
  engine.db.transaction(() => {
    for (const event of batch) consumed.run(Buffer.from(event.value).toString());
  })();
});
for (let i = 0; ; i++) {
  const value = `${prefix}:${i}`;
  await bus.publisher.publish('t', [{ key: `k${i % 5}`, value: Buffer.from(value) }]);
  await new Promise<void>((resolve) => process.stdout.write(`${value}\n`, () => resolve()));
}
