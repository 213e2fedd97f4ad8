import { OUTAGE_RETRY_AFTER_S, outageOf } from '@sesame/platform';
import express, { type ErrorRequestHandler } from 'express';
import { mountAuthorize } from './authorize';
import type { HostedDeps } from './deps';
import { mountEmailSteps } from './email-steps';
import { mountFlowPages } from './flow-pages';
import { mountMagicLinkSteps } from './magic-link-steps';
import { mountMobileSteps } from './mobile-steps';
import { mountPasskeySteps } from './passkey-steps';
import { mountPhoneSteps } from './phone-steps';
import { sendErrorPage } from './respond';

export type { HostedDeps } from './deps';

/** /authorize and the hosted sign-in pages (ARCHITECTURE §8): one router, each step in its own file. */
export function hostedRouter(deps: HostedDeps): express.Router {
  const router = express.Router();
  mountAuthorize(router, deps);
  mountEmailSteps(router, deps);
  mountMagicLinkSteps(router, deps);
  mountPhoneSteps(router, deps);
  deps.ciba?.mountPages(router);
  deps.enrollment?.mountPages(router);
  mountPasskeySteps(router, deps);
  mountMobileSteps(router, deps);
  mountFlowPages(router, deps);
  router.use(hostedErrors(deps));
  return router;
}

/**
 * A person's browser gets a page, never JSON or a stack trace: a store or peer outage (Grants, Keys, Redis)
 * is the generic error page with 503 and Retry-After; anything else is logged and the same page with 500.
 */
function hostedErrors(deps: HostedDeps): ErrorRequestHandler {
  return (err, req, res, next) => {
    // Body-parser refusals (too large, malformed) are the caller's: the platform answers them with a 4xx.
    if (res.headersSent || (typeof err?.status === 'number' && err.status < 500)) return next(err);
    const outage = outageOf(err);
    if (outage) {
      req.log.warn({ err, path: req.path }, 'hosted page failed: a store or peer is unavailable');
      res.set('Retry-After', String(OUTAGE_RETRY_AFTER_S));
    } else {
      req.log.error({ err, path: req.path }, 'hosted page failed');
    }
    sendErrorPage(deps, req, res, outage ? 503 : 500, 'generic');
  };
}
