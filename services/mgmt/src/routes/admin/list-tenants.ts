import type { Router } from 'express';
import { SYSTEM_TENANT_ID } from '../../directory/system-tenant';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { tenantView } from '../../use-cases/views';
import { adminRoute } from './admin-route';

/**
 * GET /api/v1/admin/tenants → `{tenants: [...]}`, oldest first: for a personal API token, the tenants its
 * administrator has an account in; for the bootstrap key, every tenant.
 */
export function listTenantsRoute(deps: AdminRouteDeps): Router {
  return adminRoute(
    deps,
    { method: 'get', path: '/api/v1/admin/tenants', action: 'tenant.read' },
    async ({ principal }) => {
      const all = (await deps.dir.tenants.list()).filter((t) => t.tenantId !== SYSTEM_TENANT_ID);
      if (principal.kind === 'bootstrap') return { tenants: all.map(tenantView) };
      const mine = new Set((await deps.admins.accounts.listByEmail(principal.email)).map((a) => a.tenantId));
      return { tenants: all.filter((t) => mine.has(t.tenantId)).map(tenantView) };
    },
  );
}
