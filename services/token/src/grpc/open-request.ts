import { GrpcError, GrpcStatus } from '@sesame/platform';
import type { TokenDeps } from '../deps';
import type { BackchannelRequest } from '../grants/types';

/** The live CIBA request an auth call refers to: NOT_FOUND when unknown, FAILED_PRECONDITION once expired. */
export async function liveBackchannelRequest(
  deps: TokenDeps,
  authReqId: string,
): Promise<BackchannelRequest> {
  if (!authReqId) throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'auth_req_id is required');
  const request = await deps.backchannel.find(authReqId);
  if (!request) throw new GrpcError(GrpcStatus.NOT_FOUND, 'unknown auth_req_id');
  if (deps.clock.now() >= request.expiresAt)
    throw new GrpcError(GrpcStatus.FAILED_PRECONDITION, 'auth_req_id expired');
  return request;
}
