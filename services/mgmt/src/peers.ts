import { GrpcStatus, MgmtError, type PromiseClient, isGrpcStatus } from '@sesame/platform';
import type { activitylogs, grants, keys, users } from '@sesame/proto';

/** What mgmt calls on its peers (narrowed so tests can hand in fakes). */
export type GrantsPeer = Pick<
  PromiseClient<grants.GrantsServiceClient>,
  'introspectAccessToken' | 'revokeUserGrants'
>;
/** Ends a user's refresh tokens in token (after DELETE users and device blocks). */
export type GrantRevocationPeer = Pick<GrantsPeer, 'revokeUserGrants'>;
export type UsersPeer = Pick<
  PromiseClient<users.UsersServiceClient>,
  'removeUser' | 'lookupUser' | 'blockDevice' | 'createActivationLink' | 'createInteractiveFlow'
>;
export type KeysPeer = Pick<PromiseClient<keys.KeysServiceClient>, 'rotateKeys'>;
/** Support's look-ups of people in auth (support/grpc-support.ts). */
export type SupportUsersPeer = Pick<PromiseClient<users.UsersServiceClient>, 'findUsers' | 'getUserDetail'>;
/** Support's reads of flows in activity-log; the export is a server stream, read as an async iterable. */
export type SupportFlowsPeer = Pick<
  PromiseClient<activitylogs.ActivityLogsServiceClient>,
  'listFlows' | 'getFlow'
> & {
  exportFlows(request: activitylogs.ExportFlowsRequest): AsyncIterable<activitylogs.ExportFlowsResponse>;
};

/**
 * The support peer of an activity-log client: its unary methods, and the export stream (no deadline: an
 * export lasts as long as it takes; leaving the loop early cancels the call).
 */
export function supportFlowsPeer(
  client: PromiseClient<activitylogs.ActivityLogsServiceClient>,
): SupportFlowsPeer {
  return {
    listFlows: (request, opts) => client.listFlows(request, opts),
    getFlow: (request, opts) => client.getFlow(request, opts),
    exportFlows: (request) => client.raw.exportFlows(request),
  };
}

/** A peer that cannot answer is a 503 for our caller; anything else unexpected stays a server error. */
export function peerUnavailable(err: unknown, peer: string): unknown {
  if (
    isGrpcStatus(err, GrpcStatus.UNAVAILABLE) ||
    isGrpcStatus(err, GrpcStatus.DEADLINE_EXCEEDED) ||
    isGrpcStatus(err, GrpcStatus.UNIMPLEMENTED)
  ) {
    return new MgmtError(503, 'temporarily_unavailable', `${peer} is not available; try again later`);
  }
  return err;
}

/**
 * Ends the user's refresh tokens in token after a removal or a device block has been recorded by auth. A
 * failure is a 503 for the caller: the change stands, but the grants must not outlive it silently.
 */
export async function revokeUserGrants(
  grants: GrantRevocationPeer,
  request: { tenantId: string; userId: string; appId?: string; deviceId?: string },
): Promise<void> {
  await grants
    .revokeUserGrants({
      tenantId: request.tenantId,
      userId: request.userId,
      appId: request.appId ?? '',
      deviceId: request.deviceId ?? '',
    })
    .catch((err: unknown) => {
      throw peerUnavailable(err, "the token service (ending the user's refresh tokens)");
    });
}
