import type { Router } from 'express';
import { cibaHooks } from '../journeys/ciba/finish';
import { mountCibaLinkPages } from '../journeys/ciba/link-pages';
import type { CibaHooks } from '../web/deps';
import type { CibaDeps } from './deps';

export { mountAuthorizeCiba } from './authorize-ciba';
export { CibaLinks } from './ciba-links';
export { Sealer } from './sealed-id';
export type { CibaDeps } from './deps';
export type { CibaHooks } from '../web/deps';

/** The hosted side of CIBA: the link pages, and the finish and deny the shared flow pages call. */
export function cibaHostedParts(
  deps: CibaDeps,
): CibaHooks & { mountPages(router: Router): void; deps: CibaDeps } {
  return { ...cibaHooks(deps), mountPages: (router) => mountCibaLinkPages(router, deps), deps };
}
