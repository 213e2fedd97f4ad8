import { type JWTVerifyGetKey, decodeJwt, jwtVerify } from 'jose';
import type { SessionStore } from './sessions';

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** The answer to one POST /backchannel-logout: 200 once handled, else 400 with an OAuth-style error. */
export interface BackchannelAnswer {
  status: 200 | 400;
  body: Record<string, unknown>;
}

export interface BackchannelDeps {
  issuer: string;
  clientId: string;
  /** The issuer's signing keys (jose's createRemoteJWKSet on discovery's jwks_uri). */
  keys: JWTVerifyGetKey;
  sessions: SessionStore;
  /** What ended, for the console. */
  log?: (line: string) => void;
}

const refuse = (description: string): BackchannelAnswer => ({
  status: 400,
  body: { error: 'invalid_request', error_description: description },
});

/** How many logout token ids are remembered against a replay. */
const SEEN_JTIS = 1_000;

/**
 * Back-Channel Logout 1.0 §2.6, the receiving side: the form's logout_token must be a JWT signed by the
 * issuer's key (RS256), typ logout+jwt, iss the issuer, aud this client, with iat, jti, the backchannel-logout
 * event, a sid or a sub, and no nonce; a jti seen before is a replay. Then the matching local sessions end
 * (§2.7) and the answer is 200, also when none was signed in here. Anything else is 400 invalid_request
 * (§2.8), saying why.
 */
export function backchannelReceiver(deps: BackchannelDeps) {
  const seen = new Set<string>();
  return async (formBody: string): Promise<BackchannelAnswer> => {
    const token = new URLSearchParams(formBody).get('logout_token');
    if (!token) return refuse('logout_token is missing');
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, deps.keys, {
        issuer: deps.issuer,
        audience: deps.clientId,
        typ: 'logout+jwt',
        algorithms: ['RS256'],
        requiredClaims: ['iat', 'jti', 'events'],
      }));
    } catch (err) {
      return refuse(`the logout token does not verify: ${(err as Error).message}`);
    }
    const events = payload.events as Record<string, unknown> | undefined;
    if (typeof events?.[BACKCHANNEL_LOGOUT_EVENT] !== 'object')
      return refuse('the logout token has no backchannel-logout event');
    if ('nonce' in decodeJwt(token)) return refuse('a logout token must not carry a nonce');
    const sid = typeof payload.sid === 'string' ? payload.sid : undefined;
    const sub = typeof payload.sub === 'string' ? payload.sub : undefined;
    if (!sid && !sub) return refuse('the logout token names neither a session (sid) nor a user (sub)');
    const jti = String(payload.jti);
    if (seen.has(jti)) return refuse('this logout token was already used');
    seen.add(jti);
    if (seen.size > SEEN_JTIS) seen.delete(seen.values().next().value!);
    const ended = deps.sessions.endBySesameSession({ ...(sid ? { sid } : {}), ...(sub ? { sub } : {}) });
    deps.log?.(`back-channel logout for ${sid ? `session ${sid}` : `user ${sub}`}: ${ended} ended here`);
    return { status: 200, body: {} };
  };
}
