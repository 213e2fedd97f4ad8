import type { KeyValueStore } from '@sesame/kv';
import {
  Counter,
  type Logger,
  type OutboundPolicy,
  OutboundRefused,
  type Resolver,
  STRICT_OUTBOUND,
  postToRegisteredUrl,
  shareMetric,
} from '@sesame/platform';

/** How long a delivered notification stays marked, so a redelivered one is not sent again. */
export const DELIVERED_TTL_MS = 24 * 3600 * 1000;

/** What one attempt came to: delivered, worth another attempt, or not (a 4xx, or an address not allowed). */
export type AttemptResult = 'delivered' | 'retry' | 'give_up' | 'unsafe';

/** What an attempt's metrics count: a 2xx, another answer, no answer, or an address that is not allowed. */
export type PostResult = 'delivered' | 'refused' | 'error' | 'unsafe';

/** A process-wide counter of one kind's attempts by result; labels are fixed words, never a client or an endpoint. */
export const attemptsCounter = (name: string, help: string) =>
  shareMetric(new Counter({ name, help, labelNames: ['result'] as const, registers: [] }));

/** The log lines of one kind of notification (fixed words: never an endpoint, a token or an id). */
export interface AttemptMessages {
  delivered: string;
  refused: string;
  notAllowed: string;
  failed: string;
}

/** The log lines of a kind of notification (`label`), sent to a `receiver` at its `endpoint`. */
export const attemptMessages = (label: string, receiver: string, endpoint: string): AttemptMessages => ({
  delivered: `${label} delivered`,
  refused: `${label} refused by ${receiver}`,
  notAllowed: `${label} not sent: ${endpoint} is not allowed`,
  failed: `${label} failed`,
});

/** A notification's request to its registered endpoint, and the KV key a delivery is marked under. */
export interface NotificationPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  deliveredMark: string;
}

export interface PostOptions {
  timeoutMs: number;
  /** Where notifications may go (default: https to public addresses only). */
  policy?: OutboundPolicy;
  resolver?: Resolver;
}

/**
 * One POST of a notification (a CIBA ping, a back-channel logout) to its registered endpoint, through
 * postToRegisteredUrl (the endpoint's addresses are checked and pinned, no redirect is followed, one deadline).
 * A 2xx is delivered and marked; a 4xx other than 408 and 429 is the receiver's refusal, not worth another
 * attempt; an address that is not allowed is unsafe; anything else is retried. `record` hears the result of
 * the POST (metrics).
 */
export async function postAttempt(
  post: NotificationPost,
  at: { attempt: number; kv: KeyValueStore; log: Logger; opts: PostOptions },
  kind: { messages: AttemptMessages; record: (result: PostResult) => void },
): Promise<AttemptResult> {
  const { attempt, log, opts } = at;
  const { messages } = kind;
  try {
    const { status } = await postToRegisteredUrl(post.url, {
      headers: post.headers,
      body: post.body,
      timeoutMs: opts.timeoutMs,
      policy: opts.policy ?? STRICT_OUTBOUND,
      ...(opts.resolver ? { resolver: opts.resolver } : {}),
    });
    const ok = status >= 200 && status < 300;
    kind.record(ok ? 'delivered' : 'refused');
    if (ok) {
      await at.kv.set(post.deliveredMark, '1', { ttlMs: DELIVERED_TTL_MS });
      log.info({ attempt, status }, messages.delivered);
      return 'delivered';
    }
    log.warn({ attempt, status }, messages.refused);
    return status >= 400 && status < 500 && status !== 408 && status !== 429 ? 'give_up' : 'retry';
  } catch (err) {
    const unsafe = err instanceof OutboundRefused;
    kind.record(unsafe ? 'unsafe' : 'error');
    const reason = err instanceof Error ? err.message : String(err);
    if (unsafe) {
      log.error({ attempt, reason }, messages.notAllowed);
      return 'unsafe';
    }
    log.warn({ attempt, reason }, messages.failed);
    return 'retry';
  }
}
