import { z } from 'zod';
import { type Emit, adminActivity } from '../../events/admin-events';
import { parse } from '../../http/validate';
import type { SupportPort } from '../../support/port';
import { address } from './query';

/**
 * Sign-in attempts by typed address (issue 38): a person who never managed to sign in is found by the address
 * they typed, account or not. The console's Users search and the admin API's routes both call these.
 */

/** The address as auth records it (trimmed, lower-case); 400 naming the field otherwise. */
export const attemptedAddress = (value: unknown, where = 'request body') =>
  parse(z.object({ email: address }), { email: value }, where).email;

/** A search that reads as one address (exact), else undefined: the only search that can be "no account". */
export function addressOf(query: string): string | undefined {
  const parsed = address.safeParse(query);
  return parsed.success ? parsed.data : undefined;
}

/** How many sign-in records of the tenant the address was typed in. */
export function countAttempts(support: SupportPort, tenantId: string, email: string): Promise<number> {
  return support.countFlows(tenantId, { attemptedEmail: email });
}

/** The most addresses without an account one search by the start of an address shows. */
export const NO_ACCOUNT_SHOWN = 5;
/** Typed addresses read per search: those of people with an account are among them and are left out. */
const TYPED_READ = 20;

/**
 * The addresses starting with `prefix` (3+ characters, any case) that were typed in the tenant's sign-ins but
 * are nobody's in the tenant, each with its number of attempts: how support finds a person who never got in by
 * the first letters of their address. `known` holds the addresses the same search found people for; any other
 * is looked up on its own (the search's page of people may not hold everyone who matches).
 */
export async function noAccountAddresses(
  support: SupportPort,
  tenantId: string,
  prefix: string,
  known: ReadonlySet<string>,
): Promise<{ email: string; count: number }[]> {
  const start = prefix.trim().toLowerCase();
  if (start.length < 3) return [];
  const typed = (await support.attemptedEmails(tenantId, start, TYPED_READ)).filter((e) => !known.has(e));
  const checked = await Promise.all(
    typed.map(async (email) => {
      const people = await support.findUsers(tenantId, email);
      return people.some((p) => p.email.toLowerCase() === email) ? undefined : email;
    }),
  );
  const nobodys = checked.filter((e): e is string => e !== undefined).slice(0, NO_ACCOUNT_SHOWN);
  return Promise.all(
    nobodys.map(async (email) => ({ email, count: await countAttempts(support, tenantId, email) })),
  );
}

/**
 * Erases every sign-in record of the tenant the address was typed in (with or without an account), then
 * publishes administrator_erase_attempts {email, erased} as the caller. Returns how many were erased.
 */
export async function eraseAttempts(
  support: SupportPort,
  request: { tenantId: string; email: string },
  emit: Emit,
): Promise<{ email: string; erased: number }> {
  const erased = await support.eraseFlows(request.tenantId, { attemptedEmail: request.email });
  await emit(request.tenantId, adminActivity.eraseAttempts, { email: request.email, erased });
  return { email: request.email, erased };
}
