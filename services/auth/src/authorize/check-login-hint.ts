import { oauthErrors as problems } from '@sesame/oauth';
import { z } from 'zod';

const email = z.string().max(254).email();

/** The bare address of an email hint (bare or `email:<address>`, trimmed); undefined when it is not one. */
function emailOf(loginHint: string): string | undefined {
  const trimmed = loginHint.trim();
  const address = (trimmed.startsWith('email:') ? trimmed.slice('email:'.length) : trimmed).trim();
  const parsed = email.safeParse(address);
  return parsed.success ? parsed.data : undefined;
}

/**
 * CIBA's login_hint, which names the person to ask (spec 4.3): only email hints, the bare address or
 * `email:<address>`. Returns the bare address, trimmed; anything else is invalid_request.
 */
export function checkLoginHint(loginHint: string | undefined): string | undefined {
  if (loginHint === undefined) return undefined;
  const address = emailOf(loginHint);
  if (address === undefined)
    throw problems.invalidRequest('login_hint must be an email address or email:<address>');
  return address;
}

/**
 * /authorize's login_hint: an email hint (spec 4.2) prefills the sign-in page and is returned bare and
 * trimmed. Any other hint is ignored, not refused: OIDC Core 3.1.2.1 makes login_hint a hint the OP may use.
 */
export function readLoginHint(loginHint: string | undefined): string | undefined {
  return loginHint === undefined ? undefined : emailOf(loginHint);
}

/**
 * The one form of a typed address: trimmed and lower-case, as CIBA's login_hint and the email step read it.
 * The activity record keeps an attempt's address in this form, so support finds it whatever the case typed.
 */
export function normaliseAddress(address: string): string {
  return address.trim().toLowerCase();
}
