import { Counter, Histogram } from 'prom-client';
import { shareMetric } from './metrics';

/** What became of one outgoing message: handed over, refused for good, or not delivered this time. */
export type DeliveryOutcome = 'sent' | 'refused' | 'failed';

export interface DeliveryMetrics {
  /** Runs one send, counting its outcome (classify names it when the send throws) and timing it. */
  timed<T>(
    transport: string,
    send: () => Promise<T>,
    classify: (err: unknown) => DeliveryOutcome,
  ): Promise<T>;
  messages: Counter<'outcome' | 'transport'>;
  duration: Histogram<'outcome' | 'transport'>;
}

const channels = new Map<string, DeliveryMetrics>();

/**
 * The process-wide delivery metrics of one channel (mail, sms): sesame_<channel>_messages_total and
 * sesame_<channel>_send_duration_seconds, labelled by outcome (sent, refused, failed) and transport (a fixed
 * name per adapter: smtp, outbox, http). Never a recipient, an address or a domain: the label sets stay
 * bounded. Shared with every service registry (shareMetric).
 */
export function deliveryMetrics(channel: 'mail' | 'sms'): DeliveryMetrics {
  const known = channels.get(channel);
  if (known) return known;
  const messages = shareMetric(
    new Counter({
      name: `sesame_${channel}_messages_total`,
      help: `Outgoing ${channel} messages by outcome (sent, refused: never deliverable as is, failed: not delivered this time) and transport`,
      labelNames: ['outcome', 'transport'] as const,
      registers: [],
    }),
  );
  const duration = shareMetric(
    new Histogram({
      name: `sesame_${channel}_send_duration_seconds`,
      help: `Time to hand one ${channel} message to its transport, by outcome and transport`,
      labelNames: ['outcome', 'transport'] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [],
    }),
  );
  const metrics: DeliveryMetrics = {
    messages,
    duration,
    async timed(transport, send, classify) {
      const end = duration.startTimer();
      try {
        const result = await send();
        messages.inc({ outcome: 'sent', transport });
        end({ outcome: 'sent', transport });
        return result;
      } catch (err) {
        const outcome = classify(err);
        messages.inc({ outcome, transport });
        end({ outcome, transport });
        throw err;
      }
    },
  };
  channels.set(channel, metrics);
  return metrics;
}
