import { GrpcError, GrpcStatus } from '@sesame/platform';
import type { users } from '@sesame/proto';
import { AmbiguousAliasError, resolveUserId } from '../users/resolve-user';
import type { UserStore } from '../users/users.repository';
import { membershipMessage } from './membership-message';
import { identifierOf } from './users-request';

/** LookupUser: the user a tenant knows by id or alias, with its memberships there (one app when app_id is set). */
export function lookupUser(store: UserStore) {
  return async (request: users.LookupUserRequest): Promise<users.LookupUserResponse> => {
    const identifier = identifierOf(request);
    const appId = request.appId || undefined;
    let userId: string | undefined;
    try {
      userId = await resolveUserId(store.memberships, request.tenantId, identifier, appId);
    } catch (err) {
      if (err instanceof AmbiguousAliasError)
        throw new GrpcError(GrpcStatus.FAILED_PRECONDITION, err.message);
      throw err;
    }
    const memberships = userId ? await store.memberships.listForUser(request.tenantId, userId, appId) : [];
    if (!userId || memberships.length === 0) throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
    const user = await store.users.get(userId);
    return {
      userId,
      email: user?.email ?? '',
      memberships: memberships.map(membershipMessage),
    };
  };
}
