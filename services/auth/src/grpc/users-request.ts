import { GrpcError, GrpcStatus } from '@sesame/platform';
import { users } from '@sesame/proto';
import type { UserIdentifier } from '../users/resolve-user';

const MAX_ID = 512;

/** Validates the tenant and the user identifier every Users call carries; INVALID_ARGUMENT otherwise. */
export function identifierOf(request: {
  tenantId: string;
  identifierType: users.UserIdentifierType;
  identifier: string;
}): UserIdentifier {
  if (!request.tenantId) throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'tenant_id is required');
  if (!request.identifier || request.identifier.length > MAX_ID) {
    throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'identifier is required (at most 512 characters)');
  }
  switch (request.identifierType) {
    case users.UserIdentifierType.USER_IDENTIFIER_TYPE_USER_ID:
      return { type: 'user_id', value: request.identifier };
    case users.UserIdentifierType.USER_IDENTIFIER_TYPE_ALIAS:
      return { type: 'alias', value: request.identifier };
    default:
      throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'identifier_type must be USER_ID or ALIAS');
  }
}
