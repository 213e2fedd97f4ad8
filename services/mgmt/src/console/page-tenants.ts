import { newId } from '@sesame/platform';
import express from 'express';
import { adminActivity } from '../events/admin-events';
import { asyncRoute } from '../http/async-route';
import { parse } from '../http/validate';
import { createTenantBody } from '../use-cases/tenants/tenant-schemas';
import { type ConsoleDeps, type SignedIn, signedInOf } from './context';
import { ConsoleError } from './errors';
import { formErrors, zodProblems } from './form-problems';
import { allowedRoute, pageKit } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';
import { ConsoleSessions } from './sessions';

const P = `${CONSOLE_PATH}/tenants`;
const FORM = { name: { id: 'tenant-name', label: 'tenants.name' } };

/**
 * The tenant switcher (combobox Tenant, for an administrator of several tenants) and New tenant (any Owner;
 * they become the new tenant's Owner). Switching emits administrator_leave_tenant and _enter_tenant with
 * isTenantSwitch true.
 */
export function tenantsPage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const sessions = new ConsoleSessions(deps.kv, deps.clock);
  const { show, emit, stepUp } = pageKit(deps, renderer);

  const switchTo = async (req: express.Request, res: express.Response, s: SignedIn, tenantId: string) => {
    await sessions.update(s.cookie, { ...s.session, tenantId });
    const as = emit(req, res);
    await as(s.tenant.tenantId, adminActivity.leaveTenant, { isTenantSwitch: true });
    await as(tenantId, adminActivity.enterTenant, { isTenantSwitch: true });
    await deps.admins.accounts.touch(tenantId, s.session.email, deps.clock.now());
  };

  router.post(
    '/tenant',
    asyncRoute(async (req, res) => {
      const s = signedInOf(res);
      const tenantId = String(req.body?.tenantId ?? '');
      // Only a tenant this administrator has an account in; anything else is refused like a missing page.
      if (!s.tenants.some((t) => t.tenantId === tenantId)) throw new ConsoleError(403, 'error.forbidden');
      if (tenantId !== s.tenant.tenantId) await switchTo(req, res, s, tenantId);
      res.redirect(303, `${CONSOLE_PATH}/applications`);
    }),
  );
  router.get(
    '/tenants/new',
    allowedRoute('tenant.create', async (_req, res) => {
      show(res, 'newTenant', '', 'tenants.new', { action: P });
    }),
  );
  router.post(
    '/tenants',
    allowedRoute(
      'tenant.create',
      async (req, res, s) => {
        const typed = String(req.body?.name ?? '');
        const parsed = createTenantBody.safeParse({ name: typed });
        if (!parsed.success) {
          const errors = formErrors(s.locale, FORM, zodProblems(parsed.error));
          show(res, 'newTenant', '', 'tenants.new', { action: P, name: typed, ...errors }, 400);
          return;
        }
        const { name } = parsed.data;
        const now = deps.clock.now();
        const tenant = { tenantId: newId(), name, createdAt: now, updatedAt: now };
        await deps.dir.tenants.create(tenant);
        await emit(req, res)(tenant.tenantId, adminActivity.createTenant, { tenantName: name });
        await deps.admins.accounts.create({
          tenantId: tenant.tenantId,
          email: s.session.email,
          role: 'owner',
          createdAt: now,
        });
        await switchTo(req, res, s, tenant.tenantId);
        res.redirect(303, `${CONSOLE_PATH}/applications`);
      },
      stepUp('tenant.create'),
    ),
  );
  return router;
}
