import express from 'express';
import { mountAuthorize } from './authorize';
import type { HostedDeps } from './deps';
import { mountEmailSteps } from './email-steps';
import { mountFlowPages } from './flow-pages';
import { mountMagicLinkSteps } from './magic-link-steps';

export type { HostedDeps } from './deps';

/** /authorize and the hosted sign-in pages (ARCHITECTURE §8): one router, each step in its own file. */
export function hostedRouter(deps: HostedDeps): express.Router {
  const router = express.Router();
  mountAuthorize(router, deps);
  mountEmailSteps(router, deps);
  mountMagicLinkSteps(router, deps);
  mountFlowPages(router, deps);
  return router;
}
