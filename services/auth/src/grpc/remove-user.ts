import { GrpcError, GrpcStatus } from '@sesame/platform';
import { users } from '@sesame/proto';
import { AmbiguousAliasError, resolveUserId } from '../users/resolve-user';
import type { MembershipRepository } from '../users/users.repository';
import { identifierOf } from './users-request';

/**
 * RemoveUser (spec 4.8): drops the user's association with one application (scope APP) or with every
 * application of the tenant (scope TENANT): alias, ACR values and custom data go with the membership. The
 * user itself stays, keeps its id, and counts as new for the application at its next login.
 * NOT_FOUND when the tenant (or the application) has no such user.
 */
export function removeUser(memberships: MembershipRepository) {
  return async (request: users.RemoveUserRequest): Promise<users.RemoveUserResponse> => {
    const identifier = identifierOf(request);
    const scope = request.scope;
    if (scope !== users.RemovalScope.REMOVAL_SCOPE_APP && scope !== users.RemovalScope.REMOVAL_SCOPE_TENANT) {
      throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'scope must be TENANT or APP');
    }
    if (scope === users.RemovalScope.REMOVAL_SCOPE_APP && !request.appId) {
      throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'app_id is required when scope is APP');
    }
    const appId = request.appId || undefined;
    let userId: string | undefined;
    try {
      userId = await resolveUserId(memberships, request.tenantId, identifier, appId);
    } catch (err) {
      if (err instanceof AmbiguousAliasError)
        throw new GrpcError(GrpcStatus.FAILED_PRECONDITION, err.message);
      throw err;
    }
    if (!userId) throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
    const removed = await memberships.remove(
      request.tenantId,
      userId,
      scope === users.RemovalScope.REMOVAL_SCOPE_APP ? appId : undefined,
    );
    if (removed === 0) throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
    return { userId, removedMemberships: removed };
  };
}
