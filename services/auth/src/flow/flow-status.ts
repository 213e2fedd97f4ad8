import type { Request, RequestHandler } from 'express';
import type { SessionManager } from '../session/browser-session';

/** The longest a status request waits for its flow to move on; proxies commonly allow 60 s of silence. */
export const MAX_STATUS_WAIT_S = 25;
/**
 * How often a waiting status request looks at the flow by itself. A change wakes it at once (the flow stores
 * signal every change through the KV store, to whichever pod holds the wait); this only bounds how late a
 * lost signal (a Redis reconnect) makes the page.
 */
const CHECK_EVERY_MS = 5_000;
/** How often it looks when it cannot listen for changes (Redis refused the subscription): as before signals. */
const CHECK_UNWATCHED_EVERY_MS = 500;

export type FlowState = 'pending' | 'ready' | 'expired';

/** What a status request needs of a flow store. */
export interface WatchedFlows<F> {
  /** The flow (undefined: gone). */
  load(id: string): Promise<F | undefined>;
  /** Calls `listener` whenever the flow changes or ends, on any pod; the result stops listening. */
  watch(id: string, listener: () => void): Promise<() => void>;
}

export interface FlowStatusOptions<F> {
  /**
   * When a pending flow becomes ready by itself, with no change stored (a QR's open time running out), on the
   * clock `now` (the one the flow's times are on; Date.now by default).
   */
  readyBy?: (flow: F) => number | undefined;
  now?: () => number;
  checkEveryMs?: number;
}

/**
 * GET …/status of a page that waits for something done elsewhere (a magic link confirmed, a phone done with
 * the QR): `{"state":"pending"|"ready"|"expired"}`, told only to the browser that started the flow. With
 * `?wait=N` (seconds, at most MAX_STATUS_WAIT_S) it answers as soon as the state is no longer pending, or
 * after N seconds (long polling). It does not poll the store: it wakes when the flow's store signals a change
 * (from any pod), when the flow becomes ready by itself (`readyBy`), and otherwise every CHECK_EVERY_MS, so a
 * waiting tab costs the KV store about one read per 5 s instead of two per second.
 */
export function flowStatusHandler<F extends { sessionKey: string }>(
  sessions: Pick<SessionManager, 'load'>,
  flows: WatchedFlows<F>,
  isReady: (flow: F) => boolean,
  options: FlowStatusOptions<F> = {},
): RequestHandler {
  const checkEveryMs = options.checkEveryMs ?? CHECK_EVERY_MS;
  const flowClock = options.now ?? Date.now;
  return (req, res, next) => {
    const run = async () => {
      res.set('Cache-Control', 'no-store');
      const wait = waitOf(req);
      if (wait === undefined) {
        res.status(400).json({
          error: 'invalid_request',
          error_description: `wait must be a whole number of seconds from 0 to ${MAX_STATUS_WAIT_S}`,
        });
        return;
      }
      const id = String(req.params.flowId ?? req.params.registrationId);
      const first = await flows.load(id);
      const session = first && (await sessions.load(req));
      if (!first || !session || session.key !== first.sessionKey) return void res.json({ state: 'expired' });
      const stateOf = (flow: F | undefined): FlowState =>
        !flow || flow.sessionKey !== session.key ? 'expired' : isReady(flow) ? 'ready' : 'pending';
      const deadline = Date.now() + wait * 1000;
      if (stateOf(first) !== 'pending' || wait === 0) return void res.json({ state: stateOf(first) });

      let wake: (() => void) | undefined;
      let changed = false;
      // Without signals (the subscription failed) the wait still works, by looking often.
      const stopWatching = await flows
        .watch(id, () => {
          changed = true;
          wake?.();
        })
        .catch(() => undefined);
      const lookEveryMs = stopWatching ? checkEveryMs : Math.min(checkEveryMs, CHECK_UNWATCHED_EVERY_MS);
      let closed = false;
      const onClose = () => {
        closed = true;
        wake?.();
      };
      res.once('close', onClose);
      try {
        // Read again now that changes wake us: one made between the first read and the watch is not missed.
        let flow = await flows.load(id);
        for (;;) {
          const state = stateOf(flow);
          const left = deadline - Date.now();
          if (closed) return; // the page left: nobody to answer
          if (state !== 'pending' || left <= 0) return void res.json({ state });
          const by = flow ? options.readyBy?.(flow) : undefined;
          const clock = flowClock();
          const readyIn = by !== undefined && by > clock ? by - clock : left;
          if (!changed) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, Math.min(left, lookEveryMs, readyIn));
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wake = undefined;
          }
          if (closed) return;
          changed = false;
          flow = await flows.load(id);
        }
      } finally {
        res.off('close', onClose);
        stopWatching?.();
      }
    };
    run().catch(next);
  };
}

function waitOf(req: Request): number | undefined {
  const raw = req.query.wait;
  if (raw === undefined) return 0;
  if (typeof raw !== 'string' || !/^\d{1,2}$/.test(raw)) return undefined;
  const seconds = Number(raw);
  return seconds <= MAX_STATUS_WAIT_S ? seconds : undefined;
}
