import { isFapi2, isTlsOrLoopback, oauthErrors } from '@sesame/oauth';
import type { directory } from '@sesame/proto';

/**
 * The FAPI 2.0 Security Profile's rules of /authorize and /par beyond those every client has (PKCE S256 is
 * checkPkce's, PAR requiresPar's): the authorization response travels only over TLS (§5.3.2.2: this server's
 * issuer is https, and so is the redirect URI; http only on a loopback address, a developer's machine or a
 * native app). Registration already refuses such redirect URIs; checked again because the issuer is this
 * deployment's, not the app's. invalid_request otherwise.
 */
export function checkSecurityProfile(
  client: directory.Client,
  redirectUri: string,
  issuer: string | undefined,
): void {
  if (!isFapi2(client)) return;
  if (issuer !== undefined && !isTlsOrLoopback(issuer))
    throw oauthErrors.invalidRequest('the FAPI 2.0 profile needs TLS: this server does not serve https');
  if (!isTlsOrLoopback(redirectUri))
    throw oauthErrors.invalidRequest('the FAPI 2.0 profile needs an https redirect_uri');
}
