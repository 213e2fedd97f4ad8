import express from 'express';
import { isAllowed } from '../admins/permissions';
import { ct } from '../i18n';
import {
  addressOf,
  attemptedAddress,
  countAttempts,
  eraseAttempts,
  noAccountAddresses,
} from '../use-cases/people/attempts';
import type { ConsoleDeps, SignedIn } from './context';
import { allowedRoute, pageKit } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';
import { supportOf } from './support-view';

const P = CONSOLE_PATH;

/**
 * The Users search's result for an address nobody in the tenant has (issue 38): "No account — N sign-in
 * attempts", linking to the Activity page filtered by the address, and Erase attempts for this address for the
 * roles that may (`attempts.erase`). Undefined for a search that found someone or is not one address.
 */
export async function noAccountResult(
  deps: ConsoleDeps,
  s: SignedIn,
  query: string,
  found: readonly unknown[],
): Promise<Record<string, unknown> | undefined> {
  const email = found.length ? undefined : addressOf(query);
  if (!email) return undefined;
  const count = await countAttempts(supportOf(deps.support), s.tenant.tenantId, email);
  return {
    email,
    count,
    label:
      count === 1 ? ct(s.locale, 'attempts.noAccountOne') : ct(s.locale, 'attempts.noAccount', { count }),
    ...(count > 0 ? { href: `${P}/activity?${new URLSearchParams({ email })}` } : {}),
    ...(count > 0 && isAllowed(s.account.role, 'attempts.erase')
      ? { eraseAction: `${P}/attempts/erase` }
      : {}),
  };
}

/**
 * The search by the start of an address's rows for addresses typed in sign-ins that nobody in the tenant has:
 * each address with "No account — N sign-in attempts" linking to those attempts. Empty for an exact address
 * (noAccountResult answers that) and for fewer than 3 characters.
 */
export async function noAccountMatches(
  deps: ConsoleDeps,
  s: SignedIn,
  query: string,
  found: readonly { email: string }[],
): Promise<{ email: string; label: string; href: string }[]> {
  if (addressOf(query)) return [];
  const known = new Set(found.map((u) => u.email.toLowerCase()));
  const rows = await noAccountAddresses(supportOf(deps.support), s.tenant.tenantId, query, known);
  return rows.map(({ email, count }) => ({
    email,
    label:
      count === 1 ? ct(s.locale, 'attempts.noAccountOne') : ct(s.locale, 'attempts.noAccount', { count }),
    href: `${P}/activity?${new URLSearchParams({ email })}`,
  }));
}

/** The notice after an erasure (`erased` in the search's URL), in the viewer's language. */
export function erasedView(s: SignedIn, erased: unknown, email: string): { erasedNotice?: string } {
  const count = typeof erased === 'string' && /^\d{1,9}$/.test(erased) ? Number(erased) : undefined;
  return count === undefined ? {} : { erasedNotice: ct(s.locale, 'attempts.erased', { count, email }) };
}

/** POST /console/attempts/erase (email): as the admin API's POST …/attempts/erase, then back to the search. */
export function attemptsPage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { emit } = pageKit(deps, renderer);
  router.post(
    '/attempts/erase',
    allowedRoute('attempts.erase', async (req, res, s) => {
      const email = attemptedAddress(req.body?.email, 'form');
      const { erased } = await eraseAttempts(
        supportOf(deps.support),
        { tenantId: s.tenant.tenantId, email },
        emit(req, res),
      );
      res.redirect(303, `${P}/users?${new URLSearchParams({ query: email, erased: String(erased) })}`);
    }),
  );
  return router;
}
