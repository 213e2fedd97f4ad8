import type { BatchHandler } from '@sesame/events';
import type { KeyValueStore } from '@sesame/kv';
import { type Counter, type Logger, sha256 } from '@sesame/platform';
import { events } from '@sesame/proto';
import { type DispatchingDeps, dispatchingHandler } from './consumers/decoded-batch';
import { DeliveryDispatcher, type DeliveryOptions } from './delivery-dispatcher';
import type { PingOptions } from './notify';
import { type AttemptResult, attemptMessages, attemptsCounter, postAttempt } from './post-attempt';

const deliveredMark = (noticeId: string) => `logout-delivered:${sha256(noticeId)}`;
const LOGOUT_MESSAGES = attemptMessages('back-channel logout', 'the app', 'the endpoint');

/** Per attempt, process-wide; labels are fixed words, never a client id or an endpoint. */
export const logoutMetrics = {
  attempts: attemptsCounter(
    'sesame_backchannel_logout_attempts_total',
    'Back-channel logout HTTP attempts by result (delivered, refused: a non-2xx answer, error: no answer, unsafe: an endpoint address that is not allowed, expired: the logout token expired before delivery)',
  ),
};

/**
 * One Back-Channel Logout 1.0 request (§2.5): POST `logout_token=<JWT>` as a form to the app's
 * backchannel_logout_uri, through postToRegisteredUrl (addresses checked and pinned, no redirect, one
 * deadline). A notice whose token has expired is not sent (the app would refuse it). 2xx is delivered (and
 * marked, so a redelivered notice is not sent again); a 4xx other than 408 and 429 is the app's refusal (§2.8),
 * not worth another attempt; anything else is retried.
 */
export async function attemptLogout(
  notice: events.LogoutNotice,
  attempt: number,
  kv: KeyValueStore,
  log: Logger,
  opts: Pick<PingOptions, 'timeoutMs' | 'policy' | 'resolver'> & { now?: () => number },
): Promise<AttemptResult> {
  if ((opts.now ?? Date.now)() >= notice.expiresAtMs) {
    logoutMetrics.attempts.inc({ result: 'expired' });
    log.warn({ attempt }, 'back-channel logout token expired before delivery');
    return 'give_up';
  }
  return postAttempt(
    {
      url: notice.backchannelLogoutUri,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: notice.logoutToken }).toString(),
      deliveredMark: deliveredMark(notice.noticeId),
    },
    { attempt, kv, log, opts },
    { messages: LOGOUT_MESSAGES, record: (result) => logoutMetrics.attempts.inc({ result }) },
  );
}

/** Back-channel logout notices through the DeliveryDispatcher (records `logout-notice:<hash>`). */
export function logoutDispatcher(
  kv: KeyValueStore,
  logger: Logger,
  results: Counter<'result'>,
  opts: DeliveryOptions & { post: Pick<PingOptions, 'timeoutMs' | 'policy' | 'resolver'> },
  now: () => number = Date.now,
): DeliveryDispatcher<events.LogoutNotice> {
  const { post, ...delivery } = opts;
  return new DeliveryDispatcher(
    kv,
    logger,
    results,
    {
      prefix: 'logout-notice',
      label: 'back-channel logout',
      givenUp: 'the app keeps its session until it ends by itself',
      idOf: (n) => n.noticeId,
      endpointOf: (n) => n.backchannelLogoutUri,
      logFields: (n) => ({ noticeId: n.noticeId, clientId: n.clientId }),
      codec: events.LogoutNotice,
      deliveredMark: (n) => deliveredMark(n.noticeId),
      attempt: (n, attempt, log) => attemptLogout(n, attempt, kv, log, { ...post, now }),
    },
    delivery,
    now,
  );
}

/**
 * Consumes sesame.logout-notices.v1: each notice is made durable by the dispatcher (the batch commits then,
 * never waiting for an app's endpoint); an undecodable one is logged and skipped.
 */
export function logoutNoticesHandler(deps: DispatchingDeps<events.LogoutNotice>): BatchHandler {
  return dispatchingHandler(events.LogoutNotice, 'logout notice', deps, (notice) =>
    notice.backchannelLogoutUri && notice.logoutToken ? undefined : 'incomplete',
  );
}
