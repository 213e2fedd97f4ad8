import type { directory } from '@sesame/proto';

export type Client = directory.Client;

export interface ApiCredentialsPrincipal {
  tenantId: string;
  credentialsId: string;
}

/**
 * What token needs from the Directory (served by mgmt). Each method answers null when the identity is
 * unknown or the secret is wrong; any other failure (Directory unreachable) throws.
 */
export interface ClientDirectory {
  getClient(clientId: string): Promise<Client | null>;
  authenticateClient(clientId: string, clientSecret: string): Promise<Client | null>;
  authenticateApiCredentials(credentialsId: string, secret: string): Promise<ApiCredentialsPrincipal | null>;
}
