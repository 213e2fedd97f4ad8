import { oauthErrors as problems } from '@sesame/oauth';
import { z } from 'zod';

const MAX_ALIAS = 256;
const uuid = z.string().uuid();

/**
 * bound_to (spec 4.2): `alias:<value>` or `sub:<uuid>` (a sub is lower-cased, as subs are minted). Parsed
 * and validated here; enforcing it (a device confirmed for that user) is the passkey issue's.
 */
export function checkBoundTo(
  boundTo: string | undefined,
): { type: 'alias' | 'sub'; value: string } | undefined {
  if (boundTo === undefined) return undefined;
  const separator = boundTo.indexOf(':');
  const type = boundTo.slice(0, separator);
  const value = boundTo.slice(separator + 1);
  if (separator > 0 && type === 'alias' && value.length > 0 && [...value].length <= MAX_ALIAS) {
    return { type, value };
  }
  if (separator > 0 && type === 'sub' && uuid.safeParse(value).success) {
    return { type, value: value.toLowerCase() };
  }
  throw problems.invalidRequest('bound_to must be alias:<value> or sub:<uuid>');
}
