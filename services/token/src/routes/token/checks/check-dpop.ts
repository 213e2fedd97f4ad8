import { DpopProblem, isFapi2, issuerEndpoint, oauthErrors, tokenEndpointDpopError } from '@sesame/oauth';
import type { TokenDeps } from '../../../deps';
import type { Client } from '../../../directory/directory';
import type { TokenRequest } from '../token-request';

/**
 * The DPoP proof of a /token request (RFC 9449 §5), checked once the client is known: without a DPoP header
 * the tokens are Bearer, unless the application requires DPoP (dpop_bound_access_tokens: invalid_dpop_proof)
 * or is a FAPI 2.0 app whose tokens are not certificate-bound instead;
 * with one, the proof must hold for POST {issuer}/token, and its key's thumbprint (jkt) binds what is issued.
 * A failed proof is 400 invalid_dpop_proof, or use_dpop_nonce with a DPoP-Nonce header.
 */
export async function checkDpop(
  deps: Pick<TokenDeps, 'dpop' | 'config'>,
  request: TokenRequest,
  client: Partial<
    Pick<Client, 'dpopBoundAccessTokens' | 'securityProfile' | 'tlsClientCertificateBoundAccessTokens'>
  >,
): Promise<string | undefined> {
  if (request.dpop === undefined) {
    if (client.dpopBoundAccessTokens)
      throw tokenEndpointDpopError(
        new DpopProblem('invalid_dpop_proof', 'this client must send a DPoP proof (DPoP header)'),
      );
    // FAPI 2.0 §5.3.2.1: only sender-constrained tokens. Certificate-bound ones are certificateBinding's.
    if (isFapi2(client) && !client.tlsClientCertificateBoundAccessTokens)
      throw tokenEndpointDpopError(
        new DpopProblem(
          'invalid_dpop_proof',
          'the FAPI 2.0 profile issues only sender-constrained tokens: send a DPoP proof (DPoP header)',
        ),
      );
    return undefined;
  }
  try {
    const { jkt } = await deps.dpop.verify({
      header: request.dpop,
      method: 'POST',
      url: issuerEndpoint(deps.config.SESAME_AUTH_URL, '/token'),
    });
    return jkt;
  } catch (err) {
    if (err instanceof DpopProblem) throw tokenEndpointDpopError(err);
    throw err;
  }
}

/**
 * A grant bound to a key (a code by dpop_jkt, a public client's refresh token by its first proof) needs a
 * proof by that key (RFC 9449 §5 and §10): none, or another key, is invalid_grant.
 */
export function checkBoundKey(
  boundJkt: string | undefined,
  proofJkt: string | undefined,
  what: string,
): void {
  if (!boundJkt) return;
  if (proofJkt === undefined)
    throw oauthErrors.invalidGrant(`${what} is bound to a DPoP key: send a DPoP proof`);
  if (proofJkt !== boundJkt) throw oauthErrors.invalidGrant(`${what} is bound to another DPoP key`);
}
