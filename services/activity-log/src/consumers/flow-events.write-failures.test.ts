import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { DeliveredEvent, EventPublisher, OutgoingEvent } from '@sesame/events';
import { type FlowEventFacts, encodeFlowEvent } from '@sesame/flow-events';
import { StoreUnavailableError, createLogger } from '@sesame/platform';
import { MemoryActivityLogRepository } from '../repositories/activity-logs.memory';
import { flowEvent } from '../testing/fixtures';
import { MAX_WRITE_ATTEMPTS, flowEventsHandler } from './flow-events.consumer';

const logger = createLogger({ service: 'activity-log-test', level: 'silent' });

const delivered = (facts: FlowEventFacts[]): DeliveredEvent[] =>
  facts.map((f, i) => ({
    topic: 'flows',
    partition: 0,
    offset: String(i),
    key: f.flowId,
    value: Buffer.from(encodeFlowEvent(f)),
    headers: {},
    timestamp: f.timestamp,
  }));

function setup(fail: (facts: FlowEventFacts[]) => Error | undefined) {
  const repo = new MemoryActivityLogRepository();
  const sent: OutgoingEvent[] = [];
  let writes = 0;
  const repository = {
    query: repo.query.bind(repo),
    listFlows: repo.listFlows.bind(repo),
    getFlow: repo.getFlow.bind(repo),
    exportFlows: repo.exportFlows.bind(repo),
    countFlows: repo.countFlows.bind(repo),
    eraseFlows: repo.eraseFlows.bind(repo),
    attemptedEmails: repo.attemptedEmails.bind(repo),
    applyFlowEvents: async (facts: FlowEventFacts[]) => {
      writes++;
      const err = fail(facts);
      if (err) throw err;
      await repo.applyFlowEvents(facts);
    },
  };
  const publisher = {
    publish: async (_topic: string, batch: OutgoingEvent[]) => void sent.push(...batch),
  } as EventPublisher;
  const handler = flowEventsHandler({
    bus: { publisher } as never,
    repository,
    logger,
    deadLetterTopic: 'flows-dlq',
    writeRetryDelaysMs: [1, 1, 1, 1],
  });
  return { repo, sent, handler, writes: () => writes };
}

describe('flow-events consumer: write failures', () => {
  it('retries a failing write a bounded number of times, then dead-letters only the flow that cannot be written', async () => {
    const poisoned = (facts: FlowEventFacts[]) =>
      facts.some((f) => f.flowId === 'poison') ? new Error('document too large') : undefined;
    const { repo, sent, handler, writes } = setup(poisoned);
    const batch = delivered([
      flowEvent({ flowId: 'good', eventId: 'g1' }),
      flowEvent({ flowId: 'poison', eventId: 'p1' }),
      flowEvent({ flowId: 'poison', eventId: 'p2' }),
    ]);
    await handler(batch);
    assert.equal(writes(), MAX_WRITE_ATTEMPTS + 2, 'the batch, then each flow once');
    const [good] = await repo.query({
      tenantId: 'tenant-a',
      appId: 'app-1',
      timeStart: 0,
      timeEnd: 2e12,
      skip: 0,
      pageSize: 10,
    });
    assert.equal(good?.id, 'good');
    assert.deepEqual(
      sent.map((e) => [e.key, e.headers?.['dlq-reason'], e.headers?.['dlq-source-offset']]),
      [
        ['poison', 'write_failed', '1'],
        ['poison', 'write_failed', '2'],
      ],
    );
  });

  it('dead-letters nothing while the store is down: the batch fails and is delivered again', async () => {
    const { sent, handler } = setup(() => new StoreUnavailableError('mongo'));
    await assert.rejects(handler(delivered([flowEvent({ flowId: 'f' })])), StoreUnavailableError);
    assert.deepEqual(sent, []);
  });
});
