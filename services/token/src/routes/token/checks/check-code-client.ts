import { oauthErrors } from '@sesame/oauth';
import { directory } from '@sesame/proto';
import type { Client } from '../../../directory/directory';
import type { CodeGrant } from '../../../grants/types';

/**
 * The code must have been issued to this client. Without a PKCE challenge on the code, a public client may not
 * redeem it (invalid_grant), and a confidential client that sent no secret has not authenticated at all
 * (invalid_client): spec 5.1 lets the code_verifier alone authenticate the exchange only for a code with one.
 */
export function checkCodeClient(
  grant: Pick<CodeGrant, 'clientId' | 'codeChallenge'>,
  client: Client,
  secretless = false,
): void {
  if (grant.clientId !== client.clientId)
    throw oauthErrors.invalidGrant('code was not issued to this client');
  if (grant.codeChallenge) return;
  if (client.type === directory.ClientType.CLIENT_TYPE_PUBLIC)
    throw oauthErrors.invalidGrant('a public client must use PKCE');
  if (secretless) throw oauthErrors.invalidClient('client authentication failed');
}
