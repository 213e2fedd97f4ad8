import type { KeyValueStore } from '@sesame/kv';
import { Counter, Histogram, type Logger, sha256, shareMetric } from '@sesame/platform';
import type { events } from '@sesame/proto';

// Per attempt and per outcome, process-wide (shared with the service's registry). Labels are fixed words:
// never a client id or an endpoint.
export const pingMetrics = {
  outcomes: shareMetric(
    new Counter({
      name: 'sesame_ciba_outcomes_total',
      help: 'CIBA outcomes of ping-mode requests received by the notifier, by kind (completed, denied, other)',
      labelNames: ['kind'] as const,
      registers: [],
    }),
  ),
  attempts: shareMetric(
    new Counter({
      name: 'sesame_ciba_ping_attempts_total',
      help: 'CIBA ping HTTP attempts by result (delivered, refused: a non-2xx answer, error: no answer)',
      labelNames: ['result'] as const,
      registers: [],
    }),
  ),
  retries: shareMetric(
    new Counter({
      name: 'sesame_ciba_ping_retries_total',
      help: 'CIBA ping attempts after the first one of a notification',
      registers: [],
    }),
  ),
  duration: shareMetric(
    new Histogram({
      name: 'sesame_ciba_ping_duration_seconds',
      help: "Time of one CIBA ping attempt, until the client endpoint's answer or the error",
      labelNames: ['result'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [],
    }),
  ),
};
const outcomeKinds: Record<number, string> = { 1: 'completed', 2: 'denied' };

export interface PingOptions {
  attempts: number;
  backoffMs: number;
  timeoutMs: number;
  /** Injected so tests do not wait for real backoff. */
  sleep?: (ms: number) => Promise<void>;
}

const DELIVERED_TTL_MS = 24 * 3600 * 1000;

/**
 * CIBA Core ping: POST `{"auth_req_id": ...}` to the client's notification endpoint with the
 * client_notification_token as bearer. Retries with exponential backoff; a ping that was delivered once is
 * never sent again when Kafka redelivers its outcome (the delivered mark is the only state kept).
 */
export async function deliverPing(
  outcome: events.CibaOutcome,
  kv: KeyValueStore,
  logger: Logger,
  opts: PingOptions,
): Promise<'delivered' | 'duplicate' | 'failed'> {
  const mark = `delivered:${sha256(outcome.outcomeId)}`;
  if (await kv.get(mark)) return 'duplicate';
  pingMetrics.outcomes.inc({ kind: outcomeKinds[outcome.kind] ?? 'other' });
  const sleep = opts.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const log = logger.child({ outcomeId: outcome.outcomeId, clientId: outcome.clientId });
  for (let attempt = 1; attempt <= opts.attempts; attempt++) {
    if (attempt > 1) pingMetrics.retries.inc();
    const timer = pingMetrics.duration.startTimer();
    try {
      const res = await fetch(outcome.notificationEndpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${outcome.clientNotificationToken}`,
        },
        body: JSON.stringify({ auth_req_id: outcome.authReqId }),
        redirect: 'error',
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      await res.body?.cancel();
      const result = res.ok ? 'delivered' : 'refused';
      timer({ result });
      pingMetrics.attempts.inc({ result });
      if (res.ok) {
        await kv.set(mark, '1', { ttlMs: DELIVERED_TTL_MS });
        log.info({ attempt, status: res.status }, 'ciba ping delivered');
        return 'delivered';
      }
      log.warn({ attempt, status: res.status }, 'ciba ping refused by the client endpoint');
      if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) break;
    } catch (err) {
      timer({ result: 'error' });
      pingMetrics.attempts.inc({ result: 'error' });
      log.warn({ attempt, reason: err instanceof Error ? err.message : String(err) }, 'ciba ping failed');
    }
    if (attempt < opts.attempts) await sleep(opts.backoffMs * 2 ** (attempt - 1));
  }
  log.error('ciba ping given up; the client can still poll /token');
  return 'failed';
}
