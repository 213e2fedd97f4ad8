import { directory } from '@sesame/proto';
import type { ClientDirectory } from '../../../directory/directory';

/** The origin (scheme://host[:port]) of a registered redirect URI; undefined for native-app schemes. */
function originOf(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CORS for /token: a browser app (a public client, PKCE) may read the answer from the origins of its own
 * registered redirect URIs, and no other origin may, nor may any origin read a confidential client's answer
 * (its secret does not belong in a browser). The form POST is a CORS-simple request, so there is no preflight.
 */
export async function corsHeaders(
  clients: Pick<ClientDirectory, 'getClient'>,
  clientId: string | undefined,
  origin: string,
): Promise<Record<string, string>> {
  if (!clientId) return {};
  const client = await clients.getClient(clientId).catch(() => null);
  if (client?.type !== directory.ClientType.CLIENT_TYPE_PUBLIC) return {};
  if (!client.redirectUris.some((uri) => originOf(uri) === origin)) return {};
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
}
