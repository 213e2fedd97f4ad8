import { OUTAGE_RETRY_AFTER_S, outageOf } from '@sesame/platform';
import express, { type ErrorRequestHandler } from 'express';
import { mountAuthorize } from './journeys/sign-in/authorize';
import { mountFlowPages } from './journeys/sign-in/flow-pages';
import { qrInsteadOfCode } from './journeys/sign-in/qr-instead';
import { mountSelectAccount } from './journeys/sign-in/select-account';
import { mountEmailSteps } from './steps/email-code/routes';
import { mountMagicLinkSteps } from './steps/magic-link/routes';
import { mountPasskeySteps } from './steps/passkey/routes';
import { mountPhoneSteps } from './steps/phone-number/routes';
import { mountMobileSteps } from './steps/qr/desktop';
import { MOBILE_REFUSED_PATH, endDesktopFromPhone } from './steps/qr/phone';
import type { HostedDeps } from './web/deps';
import { sendErrorPage } from './web/respond';

export type { HostedDeps } from './web/deps';

/**
 * /authorize and the hosted sign-in pages (ARCHITECTURE §8): one router, each step in its own file. The flow's
 * own pages come first: express tests the route patterns in mount order, and they are a sign-in's most
 * requested (no other step names their paths).
 */
export function hostedRouter(deps: HostedDeps): express.Router {
  const router = express.Router();
  mountFlowPages(router, deps);
  mountAuthorize(router, deps);
  mountEmailSteps(router, deps, { instead: qrInsteadOfCode(deps) });
  mountMagicLinkSteps(router, deps);
  mountPhoneSteps(router, deps);
  deps.ciba?.mountPages(router);
  deps.enrollment?.mountPages(router);
  mountPasskeySteps(router, deps, {
    endOnPhone: async (flow, ended) => {
      await endDesktopFromPhone(deps, flow, ended);
      return MOBILE_REFUSED_PATH;
    },
  });
  mountMobileSteps(router, deps);
  mountSelectAccount(router, deps);
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
