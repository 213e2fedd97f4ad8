import { GrpcError, GrpcStatus, safeEqual, sha256 } from '@sesame/platform';
import type { directory } from '@sesame/proto';
import type { CredentialsRepository } from '../directory/directory.repository';

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
    const matches = safeEqual(sha256(request.secret), found?.secretHash ?? DECOY_HASH);
    if (!found || found.revokedAt !== undefined || !request.secret || !matches) {
      throw new GrpcError(GrpcStatus.UNAUTHENTICATED, 'API credentials authentication failed');
    }
    return { tenantId: found.tenantId, credentialsId: found.credentialsId };
  };
}
