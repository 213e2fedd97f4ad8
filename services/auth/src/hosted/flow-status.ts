import type { Request, RequestHandler } from 'express';
import type { SessionManager } from '../session/browser-session';

/** The longest a status request waits for its flow to move on; proxies commonly allow 60 s of silence. */
export const MAX_STATUS_WAIT_S = 25;
/** How often a waiting status request looks at the flow again (in Redis: any pod may have changed it). */
const CHECK_EVERY_MS = 500;

export type FlowState = 'pending' | 'ready' | 'expired';

/**
 * GET …/status of a page that waits for something done elsewhere (a magic link confirmed, a phone done with
 * the QR): `{"state":"pending"|"ready"|"expired"}`, told only to the browser that started the flow. With
 * `?wait=N` (seconds, at most MAX_STATUS_WAIT_S) it answers as soon as the state is no longer pending, or
 * after N seconds (long polling): the page follows within half a second instead of on its next poll, and
 * the flow lives in the KV store, so whichever pod serves the wait sees a change any pod made.
 * `stateOf` loads the flow (undefined: gone) and says whether it can go on.
 */
export function flowStatusHandler<F extends { sessionKey: string }>(
  sessions: Pick<SessionManager, 'load'>,
  load: (id: string) => Promise<F | undefined>,
  isReady: (flow: F) => boolean,
  options: { checkEveryMs?: number } = {},
): RequestHandler {
  const checkEveryMs = options.checkEveryMs ?? CHECK_EVERY_MS;
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
      const first = await load(id);
      const session = first && (await sessions.load(req));
      if (!first || !session || session.key !== first.sessionKey) return void res.json({ state: 'expired' });
      let closed = false;
      res.once('close', () => {
        closed = true;
      });
      const deadline = Date.now() + wait * 1000;
      let flow: F | undefined = first;
      for (;;) {
        const state: FlowState =
          !flow || flow.sessionKey !== session.key ? 'expired' : isReady(flow) ? 'ready' : 'pending';
        if (state !== 'pending' || Date.now() + checkEveryMs > deadline) return void res.json({ state });
        await new Promise((r) => setTimeout(r, checkEveryMs));
        if (closed) return; // the page left: nobody to answer
        flow = await load(id);
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
