import { isMtlsAuthMethod } from '@sesame/oauth';
import { GrpcError, GrpcStatus, sha256 } from '@sesame/platform';
import type { directory } from '@sesame/proto';
import type { ApplicationRepository } from '../directory/directory.repository';
import { toClientMessage } from './client-message';
import { secretMatches } from './secret-matches';

/** Compared against when the client is unknown or public, so the answer takes the same time either way. */
const DECOY_HASH = sha256('sesame-decoy-client-secret');

/**
 * AuthenticateClient: constant-time check of a confidential client's secret. An unknown client, a public
 * client (it has no secret), a private_key_jwt client and a wrong secret all answer the same UNAUTHENTICATED.
 */
export function authenticateClient(applications: ApplicationRepository) {
  return async (
    request: directory.AuthenticateClientRequest,
  ): Promise<directory.AuthenticateClientResponse> => {
    const app = request.clientId ? await applications.findByClientId(request.clientId) : undefined;
    // A private_key_jwt app proves itself with its keys only: its secret (kept for interactive init) is refused.
    // Likewise an app registered for mutual TLS (RFC 8705): its certificate is its only proof.
    const bySecret =
      app?.clientType === 'confidential' &&
      app.tokenEndpointAuthMethod !== 'private_key_jwt' &&
      !isMtlsAuthMethod(app.tokenEndpointAuthMethod);
    const expected = bySecret ? app.clientSecretHash : undefined;
    if (!app || !secretMatches(request.clientSecret, expected, DECOY_HASH)) {
      throw new GrpcError(GrpcStatus.UNAUTHENTICATED, 'client authentication failed');
    }
    return { client: toClientMessage(app) };
  };
}
