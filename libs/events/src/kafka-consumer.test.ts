import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { Kafka } from 'kafkajs';
import pino from 'pino';
import { KafkaConsumer } from './kafka-consumer';

/**
 * A kafkajs client whose consumer joins at once and whose leave (disconnect) answers only when `leave` says
 * so: what a broker slow to let a member go looks like to KafkaConsumer. The real broker's behaviour is in
 * kafka.int.test.ts; this is the shutdown bound around it.
 */
function kafkaWithSlowLeave() {
  let leave: () => void = () => {};
  let fail: (err: Error) => void = () => {};
  const left = new Promise<void>((resolve, reject) => {
    leave = resolve;
    fail = reject;
  });
  const consumer = {
    events: { CRASH: 'consumer.crash' },
    on: () => () => {},
    connect: async () => {},
    subscribe: async () => {},
    run: async () => {},
    disconnect: () => left,
  };
  return { kafka: { consumer: () => consumer } as unknown as Kafka, leave, fail };
}

function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'warn' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

describe('KafkaConsumer.stop', () => {
  it('goes on without the leave once its time is up, says so, and forgets no group it is still in', async () => {
    const { kafka, fail } = kafkaWithSlowLeave();
    const { logger, lines } = capturingLogger();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    let stopped = 0;
    let forgotten = 0;
    const consumer = new KafkaConsumer(
      kafka,
      { groupId: 'g-slow', topics: ['t'], ephemeral: true },
      logger,
      () => stopped++,
      async () => {
        forgotten++;
      },
      200,
    );
    await consumer.start(async () => {});
    const started = Date.now();
    await consumer.stop();
    const took = Date.now() - started;
    assert.ok(took >= 190 && took < 2_000, `stop took ${took} ms`);
    assert.equal(stopped, 1);
    assert.equal(forgotten, 0, 'a group the member may still be in is not deleted');
    const warning = lines.find((l) => l.groupId === 'g-slow');
    assert.ok(warning, 'a warning names the group');
    assert.equal(warning.timeoutMs, 200);
    assert.match(String(warning.msg), /did not leave its group in time/);
    // The leave failing afterwards (the broker finally answers with an error) is nobody's unhandled rejection.
    fail(new Error('leave refused'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.off('unhandledRejection', onUnhandled);
    assert.deepEqual(unhandled, []);
  });

  it('waits for a leave that comes in time, then forgets the ephemeral group, without a warning', async () => {
    const { kafka, leave } = kafkaWithSlowLeave();
    const { logger, lines } = capturingLogger();
    let forgotten = 0;
    const consumer = new KafkaConsumer(
      kafka,
      { groupId: 'g-ok', topics: ['t'], ephemeral: true },
      logger,
      () => {},
      async () => {
        forgotten++;
      },
      5_000,
    );
    await consumer.start(async () => {});
    setTimeout(leave, 50);
    const started = Date.now();
    await consumer.stop();
    assert.ok(Date.now() - started < 1_000);
    assert.equal(forgotten, 1);
    assert.deepEqual(lines, []);
  });
});
