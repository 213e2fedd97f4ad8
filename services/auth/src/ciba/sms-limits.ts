import { OAuthError } from '@sesame/platform';

import type { LimitDimension, SendLimiter } from '@sesame/kv';

const WHAT: Record<LimitDimension, string> = {
  destination: 'this phone number',
  destination_tenant: 'this phone number',
  destination_ip: 'this phone number',
  proven: 'this phone number',
  client: 'this client',
  tenant: 'this tenant',
  ip: 'this caller address',
};

/**
 * Reserves one CIBA SMS before anything is started (per number and tenant, per number over every tenant, per
 * client, tenant and caller IP; sliding windows): one tenant's client cannot use up another tenant's allowance.
 * A full window is CIBA Core §13's access_denied (403: the OpenID Provider denies the request), with
 * Retry-After telling when a place is free again; nothing is pending then and no SMS is sent.
 */
export async function reserveCibaSms(
  limiter: SendLimiter,
  who: { target: string; clientId: string; tenantId: string; ip: string },
): Promise<void> {
  const decision = await limiter.reserve({
    destination: who.target,
    client: who.clientId,
    tenant: who.tenantId,
    ip: who.ip,
  });
  if (decision.allowed) return;
  const err = new OAuthError(
    'access_denied',
    `too many SMS for ${WHAT[decision.dimension]}; retry after ${decision.retryAfterS} s`,
    403,
  );
  err.headers = { 'Retry-After': String(decision.retryAfterS) };
  throw err;
}

/**
 * The text of the CIBA SMS. The link Sesame made and the app's name always come first: a client's own words
 * (user_link_custom_message, which may carry no URL or phone number) follow on their own line, so nobody
 * can make the message read as if another link or number were the one to use.
 */
export function cibaSmsText(appName: string, link: string, defaultIntro: string, message?: string): string {
  return message === undefined ? `${defaultIntro} ${link}` : `${appName}: ${link}\n${message}`;
}
