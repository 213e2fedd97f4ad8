import type { Router } from 'express';
import type { CibaDeps, CibaHooks } from '../../ciba';
import { cibaHooks } from './finish';
import { mountCibaLinkPages } from './link-pages';

/** The hosted side of CIBA: the link pages, and the finish and deny the shared flow pages call. */
export function cibaHostedParts(
  deps: CibaDeps,
): CibaHooks & { mountPages(router: Router): void; deps: CibaDeps } {
  return { ...cibaHooks(deps), mountPages: (router) => mountCibaLinkPages(router, deps), deps };
}
