import { GrpcStatus, MgmtError, type PromiseClient, isGrpcStatus } from '@sesame/platform';
import type { grants, keys, users } from '@sesame/proto';

/** What mgmt calls on its peers (narrowed so tests can hand in fakes). */
export type GrantsPeer = Pick<PromiseClient<grants.GrantsServiceClient>, 'introspectAccessToken'>;
export type UsersPeer = Pick<
  PromiseClient<users.UsersServiceClient>,
  'removeUser' | 'lookupUser' | 'blockDevice' | 'createActivationLink' | 'createInteractiveFlow'
>;
export type KeysPeer = Pick<PromiseClient<keys.KeysServiceClient>, 'rotateKeys'>;

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
