import type { Router } from 'express';
import { adminRoute } from '../../admin/admin-route';
import type { AdminRouteDeps } from '../../admin/deps';
import { tenantView } from '../../admin/views';
import { SYSTEM_TENANT_ID } from '../../console/system-tenant';

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
