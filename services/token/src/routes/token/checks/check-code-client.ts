import { directory } from '@sesame/proto';
import type { Client } from '../../../directory/directory';
import type { CodeGrant } from '../../../grants/types';
import { tokenErrors } from '../errors';

/** The code must have been issued to this client; a public client's code must carry a PKCE challenge. */
export function checkCodeClient(grant: Pick<CodeGrant, 'clientId' | 'codeChallenge'>, client: Client): void {
  if (grant.clientId !== client.clientId)
    throw tokenErrors.invalidGrant('code was not issued to this client');
  if (client.type === directory.ClientType.CLIENT_TYPE_PUBLIC && !grant.codeChallenge) {
    throw tokenErrors.invalidGrant('a public client must use PKCE');
  }
}
