import { GrpcError, GrpcStatus } from '@sesame/platform';
import type { directory } from '@sesame/proto';
import type { ApplicationRepository } from '../directory/directory.repository';
import { toClientMessage } from './client-message';

/** GetClient: the client registered under a client_id; NOT_FOUND when there is none. */
export function getClient(applications: ApplicationRepository) {
  return async (request: directory.GetClientRequest): Promise<directory.GetClientResponse> => {
    const app = request.clientId ? await applications.findByClientId(request.clientId) : undefined;
    if (!app) throw new GrpcError(GrpcStatus.NOT_FOUND, 'unknown client_id');
    return { client: toClientMessage(app) };
  };
}
