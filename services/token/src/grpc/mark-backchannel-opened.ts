import type { grants } from '@sesame/proto';
import type { TokenDeps } from '../deps';
import { liveBackchannelRequest } from './open-request';

/** Grants.MarkBackchannelOpened: the person opened the link; polls now answer status link_opened. */
export function markBackchannelOpened(deps: TokenDeps) {
  return async (
    request: grants.MarkBackchannelOpenedRequest,
  ): Promise<grants.MarkBackchannelOpenedResponse> => {
    const live = await liveBackchannelRequest(deps, request.authReqId);
    await deps.backchannel.markOpened(request.authReqId, live, deps.clock.now());
    return {};
  };
}
