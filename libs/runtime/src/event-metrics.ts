import type { EventBus } from '@sesame/events';
import { Gauge, type Registry } from 'prom-client';

/**
 * The event figures SREs alert on (charts/sesame/files/alerts.yaml), read from the bus at scrape time:
 * events waiting in the Kafka outbox, and how far each consumer group is behind per partition.
 */
export function registerEventMetrics(registry: Registry, bus: EventBus): void {
  new Gauge({
    name: 'sesame_event_outbox_pending',
    help: 'Events accepted for Kafka and not yet acknowledged by the broker (buffered in the outbox)',
    registers: [registry],
    collect() {
      this.set(bus.publisher.pending());
    },
  });
  new Gauge({
    name: 'sesame_kafka_consumer_lag',
    help: 'Events after the consumer group position, up to the high watermark, per partition',
    labelNames: ['group', 'topic', 'partition'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { groupId, topic, partition, lag } of bus.consumerLag()) {
        this.set({ group: groupId, topic, partition: String(partition) }, lag);
      }
    },
  });
}
