import { directory } from '@sesame/proto';
import type { Client, ClientDirectory } from '../../../directory/directory';
import { tokenErrors } from '../errors';
import type { ClientCredentials } from './read-client-credentials';

/**
 * Authenticates an application (OIDC client) through the Directory. A confidential client must present
 * its secret; a public client presents none and may only use grants that allow it (PKCE code flow).
 */
export async function authenticateClient(
  directoryPort: ClientDirectory,
  credentials: ClientCredentials,
  opts: { allowPublic: boolean },
): Promise<Client> {
  if (credentials.method === 'none') {
    const client = await directoryPort.getClient(credentials.clientId);
    if (!client) throw tokenErrors.invalidClient('client authentication failed');
    if (client.type !== directory.ClientType.CLIENT_TYPE_PUBLIC) {
      throw tokenErrors.invalidClient('client authentication required (client_secret missing)');
    }
    if (!opts.allowPublic)
      throw tokenErrors.unauthorizedClient('a public client may not use this grant type');
    return client;
  }
  const client = await directoryPort.authenticateClient(credentials.clientId, credentials.clientSecret);
  if (!client) throw tokenErrors.invalidClient('client authentication failed');
  return client;
}
