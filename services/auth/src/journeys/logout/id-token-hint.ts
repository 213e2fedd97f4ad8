import { LogoutError } from './logout-request';

/** What an id_token_hint says once its signature and issuer are checked. */
export interface IdTokenHint {
  sub: string;
  /** The client it was issued to: aud (a single audience) or azp. */
  clientId: string;
  sid?: string;
}

const invalid = (why: string) => new LogoutError('invalid_request', `id_token_hint ${why}`, 'badHint');

/**
 * Checks an id_token_hint (RP-Initiated Logout 1.0 §2): signed by one of the published signing keys
 * (`verifySignature`, the Keys service; undefined when no key verifies it) and issued by this issuer. An
 * expired hint is accepted, as §4 allows (an RP logs out long after sign-in); its exp is not looked at.
 */
export async function checkIdTokenHint(
  hint: string,
  deps: { verifySignature(jws: string): Promise<string | undefined>; issuer: string },
): Promise<IdTokenHint> {
  const payload = await deps.verifySignature(hint);
  if (payload === undefined) throw invalid('is not an ID token signed by this provider');
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(payload);
  } catch {
    throw invalid('is not a JWT');
  }
  if (typeof claims !== 'object' || claims === null) throw invalid('is not a JWT');
  if (claims.iss !== deps.issuer) throw invalid('was issued by another issuer');
  if (typeof claims.sub !== 'string' || !claims.sub) throw invalid('has no sub');
  const aud = Array.isArray(claims.aud) && claims.aud.length === 1 ? claims.aud[0] : claims.aud;
  const clientId = typeof aud === 'string' ? aud : claims.azp;
  if (typeof clientId !== 'string' || !clientId) throw invalid('names no single client');
  return {
    sub: claims.sub,
    clientId,
    ...(typeof claims.sid === 'string' && claims.sid ? { sid: claims.sid } : {}),
  };
}
