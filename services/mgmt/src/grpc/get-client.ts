import { GrpcError, GrpcStatus } from '@sesame/platform';
import type { directory } from '@sesame/proto';
import type { ApplicationRepository, TenantRepository } from '../directory/directory.repository';
import { toClientMessage } from './client-message';

/**
 * GetClient: the client registered under a client_id, with its tenant's location rule (auth enforces it at
 * sign-in); NOT_FOUND when there is none.
 */
export function getClient(applications: ApplicationRepository, tenants: TenantRepository) {
  return async (request: directory.GetClientRequest): Promise<directory.GetClientResponse> => {
    const app = request.clientId ? await applications.findByClientId(request.clientId) : undefined;
    if (!app) throw new GrpcError(GrpcStatus.NOT_FOUND, 'unknown client_id');
    const tenant = await tenants.get(app.tenantId);
    return { client: { ...toClientMessage(app), blockedCountries: [...(tenant?.blockedCountries ?? [])] } };
  };
}
