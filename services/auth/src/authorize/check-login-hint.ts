import { oauthErrors as problems } from '@sesame/oauth';
import { z } from 'zod';

const email = z.string().max(254).email();

/** Only email hints (spec 4.2): the bare address or `email:<address>`. Returns the bare address, trimmed. */
export function checkLoginHint(loginHint: string | undefined): string | undefined {
  if (loginHint === undefined) return undefined;
  const trimmed = loginHint.trim();
  const address = (trimmed.startsWith('email:') ? trimmed.slice('email:'.length) : trimmed).trim();
  const parsed = email.safeParse(address);
  if (!parsed.success)
    throw problems.invalidRequest('login_hint must be an email address or email:<address>');
  return parsed.data;
}
