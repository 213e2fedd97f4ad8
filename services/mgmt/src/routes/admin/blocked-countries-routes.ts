import { Router } from 'express';
import type { Tenant } from '../../directory/model';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { blockedCountriesBody, setBlockedCountries } from '../../use-cases/tenants/blocked-countries';
import { tenantAdminRoute } from './admin-route';

const PATH = '/api/v1/admin/tenants/:tenantId/risk-rules/blocked-countries';

const ruleView = (t: Tenant) => ({ tenantId: t.tenantId, blockedCountries: [...(t.blockedCountries ?? [])] });

/**
 * The tenant's location rule (issue: passkeys, bound devices and rules): sign-ins from these countries end
 * with risk_access_restriction. PUT sets the list (administrator_create_risk_rule the first time,
 * administrator_update_risk_rule with its diff after; nothing when it does not change), GET reads it, DELETE
 * removes it (administrator_remove_risk_rule). Each answers `{tenantId, blockedCountries}`.
 */
export function blockedCountriesRoutes(deps: AdminRouteDeps): Router {
  return Router().use(
    tenantAdminRoute(deps, { method: 'get', path: PATH, action: 'riskRule.read' }, async ({ tenant }) =>
      ruleView(tenant),
    ),
    tenantAdminRoute(
      deps,
      {
        method: 'put',
        path: PATH,
        action: 'riskRule.write',
        stepUp: 'riskRule.write',
        body: blockedCountriesBody,
      },
      async ({ body, tenant: before, emit }) =>
        ruleView(await setBlockedCountries(deps, before, body.countries, emit)),
    ),
    tenantAdminRoute(
      deps,
      { method: 'delete', path: PATH, action: 'riskRule.write', stepUp: 'riskRule.write' },
      async ({ tenant: before, emit }) => ruleView(await setBlockedCountries(deps, before, [], emit)),
    ),
  );
}
