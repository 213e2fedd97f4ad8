import { GrpcError, GrpcStatus, sha256 } from '@sesame/platform';
import type { directory } from '@sesame/proto';
import type { CredentialsRepository } from '../directory/directory.repository';
import { secretMatches } from './secret-matches';

const DECOY_HASH = sha256('sesame-decoy-api-secret');

/**
 * AuthenticateApiCredentials: constant-time check of management API credentials. Unknown, revoked and
 * wrong-secret all answer the same UNAUTHENTICATED.
 */
export function authenticateApiCredentials(credentials: CredentialsRepository) {
  return async (
    request: directory.AuthenticateApiCredentialsRequest,
  ): Promise<directory.AuthenticateApiCredentialsResponse> => {
    const found = request.credentialsId ? await credentials.findById(request.credentialsId) : undefined;
    const matches = secretMatches(request.secret, found?.secretHash, DECOY_HASH);
    if (!found || found.revokedAt !== undefined || !matches) {
      throw new GrpcError(GrpcStatus.UNAUTHENTICATED, 'API credentials authentication failed');
    }
    return { tenantId: found.tenantId, credentialsId: found.credentialsId };
  };
}
