import { GrpcError, GrpcStatus } from '@sesame/platform';
import type { users } from '@sesame/proto';
import type { EnrollmentLinks } from '../journeys/enrollment/links';
import type { UserRepository } from '../users/users.repository';

const MAX = 2048;

/**
 * CreateInteractiveFlow (mgmt's interactive init, spec 4.9): mgmt has authenticated the RP and checked that
 * redirect_uri is registered for the app; this makes the single-use URL that starts the flow for the user.
 * Only device_enrollment exists. NOT_FOUND for an unknown user.
 */
export function createInteractiveFlow(deps: {
  users: UserRepository;
  links: EnrollmentLinks;
  authUrl: string;
}) {
  return async (
    request: users.CreateInteractiveFlowRequest,
  ): Promise<users.CreateInteractiveFlowResponse> => {
    const { tenantId, appId, clientId, userId, redirectUri, state } = request;
    if (!tenantId || !appId || !clientId || !userId || !redirectUri) {
      throw new GrpcError(
        GrpcStatus.INVALID_ARGUMENT,
        'tenant_id, app_id, client_id, user_id and redirect_uri are required',
      );
    }
    if (request.purpose !== 'device_enrollment') {
      throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'purpose must be device_enrollment');
    }
    if (redirectUri.length > MAX || state.length > MAX) {
      throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'redirect_uri and state are at most 2048 characters');
    }
    if (!(await deps.users.get(userId))) throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
    const { token, expiresAt } = await deps.links.create({
      tenantId,
      appId,
      clientId,
      userId,
      purpose: 'device_enrollment',
      redirectUri,
      ...(state ? { state } : {}),
    });
    return { url: `${deps.authUrl.replace(/\/+$/, '')}/enroll/${token}`, expiresAt };
  };
}
