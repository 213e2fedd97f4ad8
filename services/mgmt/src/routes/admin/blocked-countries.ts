import { MgmtError } from '@sesame/platform';
import { Router } from 'express';
import { z } from 'zod';
import { adminOf } from '../../admin/admin-auth';
import { adminActivity } from '../../admin/admin-events';
import type { AdminRouteDeps } from '../../admin/deps';
import { settingsDiff } from '../../admin/diff';
import { requireTenant } from '../../admin/views';
import type { Tenant } from '../../directory/model';
import { asyncRoute } from '../../http/async-route';
import { parse } from '../../http/validate';

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
  return Router()
    .get(
      PATH,
      asyncRoute(async (req, res) => {
        res.json(ruleView(await requireTenant(deps.dir, req.params.tenantId!)));
      }),
    )
    .put(
      PATH,
      asyncRoute(async (req, res) => {
        const body = parse(blockedCountriesBody, req.body);
        const before = await requireTenant(deps.dir, req.params.tenantId!);
        const countries = [...new Set(body.countries)].sort();
        const had = (before.blockedCountries ?? []).length > 0;
        const diff = settingsDiff(before, { ...before, blockedCountries: countries }, ['blockedCountries']);
        if (!diff) return void res.json(ruleView(before));
        const after = await save(before.tenantId, countries);
        if (had)
          await deps.events.publish(adminOf(res), after.tenantId, adminActivity.updateRiskRule, { diff });
        else
          await deps.events.publish(adminOf(res), after.tenantId, adminActivity.createRiskRule, {
            ruleType: BLOCKED_COUNTRIES_RULE,
          });
        res.json(ruleView(after));
      }),
    )
    .delete(
      PATH,
      asyncRoute(async (req, res) => {
        const before = await requireTenant(deps.dir, req.params.tenantId!);
        if (!(before.blockedCountries ?? []).length) return void res.json(ruleView(before));
        const after = await save(before.tenantId, []);
        await deps.events.publish(adminOf(res), after.tenantId, adminActivity.removeRiskRule, {
          ruleType: BLOCKED_COUNTRIES_RULE,
        });
        res.json(ruleView(after));
      }),
    );
}
