import type { Router } from 'express';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { requireApplication } from '../../use-cases/views';
import { sendInvitation } from '../mgmt/send-activation';
import { invitationBody } from '../mgmt/send-activation-body';
import { tenantAdminRoute } from './admin-route';

/**
 * POST /api/v1/admin/tenants/:tenantId/applications/:appId/invitations → spec 4.5's response. The admin key's
 * way to send-activation (the CLI's `user invite`): the body of spec 4.5 without clientId and credentialsId.
 * No admin event: spec 2.5 names none for it; the registration's own activity record
 * (custodian_registration_started, flowType enrollment) shows it.
 */
export function inviteUserRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    {
      method: 'post',
      action: 'user.invite',
      path: '/api/v1/admin/tenants/:tenantId/applications/:appId/invitations',
      body: invitationBody,
    },
    async ({ req, body, tenant }) => {
      const app = await requireApplication(deps.dir, tenant.tenantId, req.params.appId!);
      return sendInvitation(deps.users, app, body, req.ip ?? '');
    },
  );
}
