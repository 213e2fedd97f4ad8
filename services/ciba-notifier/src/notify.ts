import type { KeyValueStore } from '@sesame/kv';
import {
  Counter,
  Histogram,
  type Logger,
  type OutboundPolicy,
  type Resolver,
  sha256,
  shareMetric,
} from '@sesame/platform';
import type { events } from '@sesame/proto';
import { type AttemptResult, attemptMessages, attemptsCounter, postAttempt } from './post-attempt';

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
  attempts: attemptsCounter(
    'sesame_ciba_ping_attempts_total',
    'CIBA ping HTTP attempts by result (delivered, refused: a non-2xx answer, error: no answer, unsafe: an endpoint address that is not allowed)',
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
  /** Where pings may go (default: https to public addresses only). */
  policy?: OutboundPolicy;
  /** DNS for the endpoint's host (tests inject one). */
  resolver?: Resolver;
  /** Injected so tests do not wait for real backoff. */
  sleep?: (ms: number) => Promise<void>;
}

export const deliveredMark = (outcomeId: string) => `delivered:${sha256(outcomeId)}`;

export type { AttemptResult } from './post-attempt';

const PING_MESSAGES = attemptMessages('ciba ping', 'the client endpoint', 'the notification endpoint');

/** Counts an outcome the notifier is about to ping for (once per outcome). */
export const countOutcome = (outcome: events.CibaOutcome) =>
  pingMetrics.outcomes.inc({ kind: outcomeKinds[outcome.kind] ?? 'other' });

/**
 * One CIBA Core ping: POST `{"auth_req_id": ...}` to the client's notification endpoint with the
 * client_notification_token as bearer, through postToRegisteredUrl (the endpoint's addresses are checked and
 * pinned, no redirect is followed, one deadline). A delivered ping is marked so a redelivered outcome is not
 * sent again.
 */
export async function attemptPing(
  outcome: events.CibaOutcome,
  attempt: number,
  kv: KeyValueStore,
  log: Logger,
  opts: Pick<PingOptions, 'timeoutMs' | 'policy' | 'resolver'>,
): Promise<AttemptResult> {
  if (attempt > 1) pingMetrics.retries.inc();
  const timer = pingMetrics.duration.startTimer();
  return postAttempt(
    {
      url: outcome.notificationEndpoint,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${outcome.clientNotificationToken}`,
      },
      body: JSON.stringify({ auth_req_id: outcome.authReqId }),
      deliveredMark: deliveredMark(outcome.outcomeId),
    },
    { attempt, kv, log, opts },
    {
      messages: PING_MESSAGES,
      record: (result) => {
        timer({ result });
        pingMetrics.attempts.inc({ result });
      },
    },
  );
}

/**
 * A whole ping series in one go (attempts with exponential backoff between them), for callers that need no
 * queue; the service itself goes through PingDispatcher, which frees its slot between attempts.
 */
export async function deliverPing(
  outcome: events.CibaOutcome,
  kv: KeyValueStore,
  logger: Logger,
  opts: PingOptions,
): Promise<'delivered' | 'duplicate' | 'failed'> {
  if (await kv.get(deliveredMark(outcome.outcomeId))) return 'duplicate';
  countOutcome(outcome);
  const sleep = opts.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const log = logger.child({ outcomeId: outcome.outcomeId, clientId: outcome.clientId });
  for (let attempt = 1; attempt <= opts.attempts; attempt++) {
    const result = await attemptPing(outcome, attempt, kv, log, opts);
    if (result === 'delivered') return 'delivered';
    if (result !== 'retry') break;
    if (attempt < opts.attempts) await sleep(opts.backoffMs * 2 ** (attempt - 1));
  }
  log.error('ciba ping given up; the client can still poll /token');
  return 'failed';
}
