import { Router } from 'express';
import type { AdminRouteDeps } from '../../admin/deps';
import { requireApplication, requireTenant } from '../../admin/views';
import { asyncRoute } from '../../http/async-route';
import { parse } from '../../http/validate';
import { sendInvitation } from '../mgmt/send-activation';
import { invitationBody } from '../mgmt/send-activation-body';

/**
 * POST /api/v1/admin/tenants/:tenantId/applications/:appId/invitations → spec 4.5's response. The admin key's
 * way to send-activation (the CLI's `user invite`): the body of spec 4.5 without clientId and credentialsId.
 * No admin event: spec 2.5 names none for it; the registration's own activity record
 * (custodian_registration_started, flowType enrollment) shows it.
 */
export function inviteUserRoute(deps: AdminRouteDeps): Router {
  return Router().post(
    '/api/v1/admin/tenants/:tenantId/applications/:appId/invitations',
    asyncRoute(async (req, res) => {
      const body = parse(invitationBody, req.body);
      const tenant = await requireTenant(deps.dir, req.params.tenantId!);
      const app = await requireApplication(deps.dir, tenant.tenantId, req.params.appId!);
      res.json(await sendInvitation(deps.users, app, body, req.ip ?? ''));
    }),
  );
}
