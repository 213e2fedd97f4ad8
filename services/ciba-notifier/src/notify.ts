import type { KeyValueStore } from '@sesame/kv';
import { type Logger, sha256 } from '@sesame/platform';
import type { events } from '@sesame/proto';

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
  const sleep = opts.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const log = logger.child({ outcomeId: outcome.outcomeId, clientId: outcome.clientId });
  for (let attempt = 1; attempt <= opts.attempts; attempt++) {
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
      if (res.ok) {
        await kv.set(mark, '1', { ttlMs: DELIVERED_TTL_MS });
        log.info({ attempt, status: res.status }, 'ciba ping delivered');
        return 'delivered';
      }
      log.warn({ attempt, status: res.status }, 'ciba ping refused by the client endpoint');
      if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) break;
    } catch (err) {
      log.warn({ attempt, reason: err instanceof Error ? err.message : String(err) }, 'ciba ping failed');
    }
    if (attempt < opts.attempts) await sleep(opts.backoffMs * 2 ** (attempt - 1));
  }
  log.error('ciba ping given up; the client can still poll /token');
  return 'failed';
}
