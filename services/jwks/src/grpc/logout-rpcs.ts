import { GrpcError, GrpcStatus } from '@sesame/platform';
import type { keys } from '@sesame/proto';
import { JwsError, isJwsAlg, signLogoutToken, verifyJws } from '../keys/jws';
import type { KeyManager } from '../keys/key-manager';

/** Logout tokens live at most this long (Back-Channel Logout 1.0 §2.4 advises a short life). */
const MAX_LOGOUT_TOKEN_TTL_S = 600;

/** VerifySignature: an id_token_hint's signature against every published signing key, of every alg. */
export function verifySignatureRpc(manager: Pick<KeyManager, 'verificationKey'>) {
  return async (request: keys.VerifySignatureRequest): Promise<keys.VerifySignatureResponse> => {
    try {
      return verifyJws(request.jws, (kid) => manager.verificationKey(kid));
    } catch (err) {
      if (err instanceof JwsError) throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, err.message);
      throw err;
    }
  };
}

/** SignLogoutToken: a logout token signed with the active key of the requested alg (RS256 when empty). */
export function signLogoutTokenRpc(manager: Pick<KeyManager, 'signingKey'>, now: () => number = Date.now) {
  return async (request: keys.SignLogoutTokenRequest): Promise<keys.SignLogoutTokenResponse> => {
    if (!request.issuer || !request.audience || (!request.sub && !request.sid))
      throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'issuer, audience and sub or sid are required');
    if (request.ttlS < 1 || request.ttlS > MAX_LOGOUT_TOKEN_TTL_S)
      throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, `ttl_s must be 1 to ${MAX_LOGOUT_TOKEN_TTL_S}`);
    const alg = request.alg || 'RS256';
    if (!isJwsAlg(alg)) throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'alg must be RS256, PS256 or ES256');
    const signing = manager.signingKey(alg);
    if (!signing) throw new GrpcError(GrpcStatus.UNAVAILABLE, `no active ${alg} signing key yet`);
    const { token, jti } = signLogoutToken(signing, {
      issuer: request.issuer,
      audience: request.audience,
      ...(request.sub ? { sub: request.sub } : {}),
      ...(request.sid ? { sid: request.sid } : {}),
      ttlS: request.ttlS,
      nowMs: now(),
    });
    return { logoutToken: token, jti };
  };
}
