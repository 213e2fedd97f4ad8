import { certificateThumbprint, oauthErrors } from '@sesame/oauth';
import type { Client } from '../../../directory/directory';
import type { TokenRequest } from '../token-request';

/**
 * Certificate-bound access tokens (RFC 8705 3): for an app registered with
 * tlsClientCertificateBoundAccessTokens, the x5t#S256 of the certificate this /token request came with, kept
 * with the access token so /userinfo and /introspect accept it only with that certificate. Without a
 * certificate such an app gets no token (invalid_request) rather than an unbound one. Checked before the
 * grant is consumed. Undefined for every other app.
 */
export function certificateBinding(
  client: Client,
  request: TokenRequest,
): { certificateThumbprint?: string } {
  if (!client.tlsClientCertificateBoundAccessTokens) return {};
  const presented = request.certificate?.();
  if (!presented)
    throw oauthErrors.invalidRequest(
      'this client receives certificate-bound tokens: present its TLS client certificate',
    );
  return { certificateThumbprint: certificateThumbprint(presented.cert) };
}
