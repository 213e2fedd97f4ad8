import { FAPI2_PROFILE, isFapi2ClientAuthMethod, isTlsOrLoopback } from '@sesame/oauth';
import type { Application } from '../../directory/model';

type ProfileSettings = Pick<
  Application,
  'securityProfile' | 'tokenEndpointAuthMethod' | 'redirectUris' | 'postLogoutRedirectUris'
> & { public: boolean };

/**
 * What the FAPI 2.0 Security Profile asks of a registration (FAPI 2.0 §5.3.2.1 and §5.3.2.2), checked on the
 * application as it will be saved: a confidential client, authenticating with private_key_jwt or mutual TLS
 * (never its secret), whose redirect URIs are https (http only on a loopback address). The rest of the profile
 * (PAR, PKCE, sender-constrained tokens, code life, no rotation) is enforced where the requests arrive.
 */
export function securityProfileProblem(app: ProfileSettings): Record<string, string> | undefined {
  if (app.securityProfile !== FAPI2_PROFILE) return undefined;
  if (app.public) return { securityProfile: 'the FAPI 2.0 profile needs a confidential client' };
  if (!isFapi2ClientAuthMethod(app.tokenEndpointAuthMethod))
    return {
      tokenEndpointAuthMethod:
        'the FAPI 2.0 profile needs private_key_jwt, tls_client_auth or self_signed_tls_client_auth',
    };
  const plain = app.redirectUris.find((uri) => !isTlsOrLoopback(uri));
  if (plain)
    return {
      redirectUris: `the FAPI 2.0 profile needs https redirect URIs (http only on loopback): ${plain}`,
    };
  return undefined;
}
