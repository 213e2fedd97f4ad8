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
