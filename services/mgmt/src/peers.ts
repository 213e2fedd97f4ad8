import type { ClientReadableStream } from '@grpc/grpc-js';
import { GrpcStatus, MgmtError, type PromiseClient, isGrpcStatus } from '@sesame/platform';
import { activitylogs, type grants, type keys, type users } from '@sesame/proto';

/** What mgmt calls on its peers (narrowed so tests can hand in fakes). */
export type GrantsPeer = Pick<
  PromiseClient<grants.GrantsServiceClient>,
  'introspectAccessToken' | 'revokeUserGrants'
>;
/** Ends a user's refresh tokens in token (after DELETE users and device blocks). */
export type GrantRevocationPeer = Pick<GrantsPeer, 'revokeUserGrants'>;
export type UsersPeer = Pick<
  PromiseClient<users.UsersServiceClient>,
  | 'removeUser'
  | 'lookupUser'
  | 'blockDevice'
  | 'createActivationLink'
  | 'createInteractiveFlow'
  | 'signOutEverywhere'
  | 'setUserDisabled'
>;
export type KeysPeer = Pick<PromiseClient<keys.KeysServiceClient>, 'rotateKeys'>;
/** Support's look-ups of people in auth (support/grpc-support.ts). */
export type SupportUsersPeer = Pick<
  PromiseClient<users.UsersServiceClient>,
  'findUsers' | 'getUserDetail' | 'listUserSessions' | 'listUsers' | 'removePasskey' | 'removePhoneNumber'
>;
/** Support's reads of flows in activity-log; the export is a server stream, read as an async iterable. */
export type SupportFlowsPeer = Pick<
  PromiseClient<activitylogs.ActivityLogsServiceClient>,
  'listFlows' | 'getFlow' | 'countFlows' | 'eraseFlows' | 'listAttemptedEmails'
> & {
  exportFlows(request: activitylogs.ExportFlowsRequest): AsyncIterable<activitylogs.ExportFlowsResponse>;
};

const exportMethod = activitylogs.ActivityLogsServiceService.exportFlows;
const keepBytes = (bytes: Buffer) => bytes;

/**
 * The export's messages, each decoded when the reader takes it: what grpc-js buffers ahead of a slow reader
 * (up to 16 messages) is their bytes, not the records decoded from them (docs/performance.md, the export).
 * Leaving early cancels the call: grpc-js does not when its stream is only destroyed, and activity-log would
 * wait for ever, holding the export's snapshot, for a reader that is gone.
 */
async function* decodedOneByOne(
  call: ClientReadableStream<Buffer>,
): AsyncIterable<activitylogs.ExportFlowsResponse> {
  try {
    for await (const bytes of call) yield activitylogs.ExportFlowsResponse.decode(bytes as Buffer);
  } finally {
    call.cancel();
  }
}

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
    countFlows: (request, opts) => client.countFlows(request, opts),
    eraseFlows: (request, opts) => client.eraseFlows(request, opts),
    listAttemptedEmails: (request, opts) => client.listAttemptedEmails(request, opts),
    exportFlows: (request) =>
      decodedOneByOne(
        client.raw.makeServerStreamRequest<activitylogs.ExportFlowsRequest, Buffer>(
          exportMethod.path,
          exportMethod.requestSerialize,
          keepBytes,
          request,
        ),
      ),
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
