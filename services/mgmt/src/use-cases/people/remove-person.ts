import { GrpcStatus, MgmtError, isGrpcStatus } from '@sesame/platform';
import { users } from '@sesame/proto';
import { type Emit, adminActivity } from '../../events/admin-events';
import { type GrantRevocationPeer, type UsersPeer, peerUnavailable, revokeUserGrants } from '../../peers';
import type { SupportPort } from '../../support/port';
import { erasePersonRecords, personAddress } from './erase-person-records';

/**
 * Spec 4.8's removal, as DELETE users and the console's Users page do it: auth removes the association with one
 * application (scope app) or every application of the tenant (403 user_not_found for a person auth does not
 * know in this tenant), then the person's refresh tokens (of the tenant, or of that app) end in token.
 * When token cannot be reached after the removal: 503 naming the user ID, and a retry by that user ID (403
 * user_not_found, since the person is gone) still ends the refresh tokens. The removal publishes
 * administrator_remove_user {userId, scope, appId (scope app)} as the caller, once auth removed the person (a
 * retry that finds them gone publishes nothing). A removal from the tenant also erases the person's sign-in
 * records (by user ID, and those their address was typed in, issue 38; erase-person-records.ts). Returns the
 * person's user ID.
 */
export async function removePerson(
  deps: { users: UsersPeer; grants: GrantRevocationPeer; support?: SupportPort },
  request: users.RemoveUserRequest,
  emit: Emit,
): Promise<string> {
  const app = request.scope === users.RemovalScope.REMOVAL_SCOPE_APP && request.appId;
  const endGrants = (userId: string) =>
    revokeUserGrants(deps.grants, {
      tenantId: request.tenantId,
      userId,
      ...(app ? { appId: request.appId } : {}),
    });
  // Read before the removal: once removed, the person is no longer found in the tenant by any reading.
  const address = app ? undefined : await personAddress(deps.support, request);
  let userId: string;
  try {
    ({ userId } = await deps.users.removeUser(request));
  } catch (err) {
    if (isGrpcStatus(err, GrpcStatus.NOT_FOUND)) {
      // A retry after the 503 below finds the person gone: their refresh tokens (in this tenant only) end now.
      if (request.identifierType === users.UserIdentifierType.USER_IDENTIFIER_TYPE_USER_ID) {
        await endGrants(request.identifier);
      }
      throw new MgmtError(403, 'user_not_found', 'user not found');
    }
    if (isGrpcStatus(err, GrpcStatus.FAILED_PRECONDITION)) {
      throw new MgmtError(
        400,
        'invalid_request',
        'the alias belongs to several users of the tenant: pass appId',
        {
          appId: 'is required to tell users with this alias apart',
        },
      );
    }
    throw peerUnavailable(err, 'the user service');
  }
  await emit(request.tenantId, adminActivity.removeUser, {
    userId,
    scope: app ? 'app' : 'tenant',
    ...(app ? { appId: request.appId } : {}),
  });
  try {
    await endGrants(userId);
  } catch (err) {
    if (!(err instanceof MgmtError) || err.status !== 503) throw err;
    throw new MgmtError(
      503,
      err.code,
      `the user was removed, but their refresh tokens could not be ended yet: retry with userIdentifierType=user_id and userIdentifier=${userId}`,
    );
  }
  if (!app) await erasePersonRecords(deps.support, request.tenantId, userId, address);
  return userId;
}
