import { MgmtError } from '@sesame/platform';
import { Router } from 'express';
import { z } from 'zod';
import { adminActivity } from '../../admin/admin-events';
import { tenantAdminRoute } from '../../admin/admin-route';
import type { AdminRouteDeps } from '../../admin/deps';
import { settingsDiff } from '../../admin/diff';
import type { Tenant } from '../../directory/model';

const PATH = '/api/v1/admin/tenants/:tenantId/risk-rules/blocked-countries';
/** ruleType of administrator_create_risk_rule / _remove_risk_rule (spec 2.5). */
export const BLOCKED_COUNTRIES_RULE = 'blocked_countries';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
/** An assigned ISO 3166-1 alpha-2 code (ICU knows its name), in upper case. */
const countryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code')
  .transform((c) => c.toUpperCase())
  .refine((c) => regionNames.of(c) !== undefined, 'is not an assigned ISO 3166-1 alpha-2 country code');

export const blockedCountriesBody = z
  .object({ countries: z.array(countryCode).min(1, 'must name at least one country').max(250) })
  .strict();

const ruleView = (t: Tenant) => ({ tenantId: t.tenantId, blockedCountries: [...(t.blockedCountries ?? [])] });

/**
 * The tenant's location rule (issue: passkeys, bound devices and rules): sign-ins from these countries end
 * with risk_access_restriction. PUT sets the list (administrator_create_risk_rule the first time,
 * administrator_update_risk_rule with its diff after; nothing when it does not change), GET reads it, DELETE
 * removes it (administrator_remove_risk_rule). Each answers `{tenantId, blockedCountries}`.
 */
export function blockedCountriesRoutes(deps: AdminRouteDeps): Router {
  const save = async (tenantId: string, blockedCountries: string[]) => {
    const after = await deps.dir.tenants.update(tenantId, { blockedCountries, updatedAt: deps.clock.now() });
    if (!after) throw new MgmtError(404, 'tenant_not_found', 'no such tenant');
    return after;
  };
  return Router().use(
    tenantAdminRoute(deps, { method: 'get', path: PATH, action: 'riskRule.read' }, async ({ tenant }) =>
      ruleView(tenant),
    ),
    tenantAdminRoute(
      deps,
      { method: 'put', path: PATH, action: 'riskRule.write', body: blockedCountriesBody },
      async ({ body, tenant: before, emit }) => {
        const countries = [...new Set(body.countries)].sort();
        const had = (before.blockedCountries ?? []).length > 0;
        const diff = settingsDiff(before, { ...before, blockedCountries: countries }, ['blockedCountries']);
        if (!diff) return ruleView(before);
        const after = await save(before.tenantId, countries);
        if (had) await emit(after.tenantId, adminActivity.updateRiskRule, { diff });
        else await emit(after.tenantId, adminActivity.createRiskRule, { ruleType: BLOCKED_COUNTRIES_RULE });
        return ruleView(after);
      },
    ),
    tenantAdminRoute(
      deps,
      { method: 'delete', path: PATH, action: 'riskRule.write' },
      async ({ tenant: before, emit }) => {
        if (!(before.blockedCountries ?? []).length) return ruleView(before);
        const after = await save(before.tenantId, []);
        await emit(after.tenantId, adminActivity.removeRiskRule, { ruleType: BLOCKED_COUNTRIES_RULE });
        return ruleView(after);
      },
    ),
  );
}
