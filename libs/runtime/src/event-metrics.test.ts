import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { Registry } from 'prom-client';
import { registerEventMetrics } from './event-metrics';

describe('registerEventMetrics', () => {
  it('reports the outbox backlog and the consumer lag per partition at scrape time', async () => {
    const bus = new MemoryEventBus();
    let pending = 7;
    let lag = [{ groupId: 'g', topic: 't', partition: 2, lag: 40 }];
    Object.assign(bus.publisher, { pending: () => pending });
    bus.consumerLag = () => lag;
    const registry = new Registry();
    registerEventMetrics(registry, bus);
    let text = await registry.metrics();
    assert.match(text, /^sesame_event_outbox_pending 7$/m);
    assert.match(text, /^sesame_kafka_consumer_lag\{group="g",topic="t",partition="2"\} 40$/m);
    pending = 0;
    lag = [];
    text = await registry.metrics();
    assert.match(text, /^sesame_event_outbox_pending 0$/m);
    assert.doesNotMatch(text, /^sesame_kafka_consumer_lag\{/m);
  });
});
