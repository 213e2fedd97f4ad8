import { MgmtError } from '@sesame/platform';
import { z } from 'zod';
import type { Tenant } from '../../directory/model';
import { type Emit, adminActivity } from '../../events/admin-events';
import { settingsDiff } from '../../events/diff';
import type { AdminRouteDeps } from '../deps';

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

/**
 * Sets the blocked countries (codes already validated): administrator_create_risk_rule the first time,
 * _update_risk_rule with its diff after, _remove_risk_rule for an empty list; nothing when nothing changes.
 * The admin API and the console's Settings page.
 */
export async function setBlockedCountries(
  deps: Pick<AdminRouteDeps, 'dir' | 'clock'>,
  before: Tenant,
  codes: string[],
  emit: Emit,
): Promise<Tenant> {
  const countries = [...new Set(codes)].sort();
  const had = (before.blockedCountries ?? []).length > 0;
  if (!countries.length && !had) return before;
  const diff = settingsDiff(before, { ...before, blockedCountries: countries }, ['blockedCountries']);
  if (!diff) return before;
  const after = await deps.dir.tenants.update(before.tenantId, {
    blockedCountries: countries,
    updatedAt: deps.clock.now(),
  });
  if (!after) throw new MgmtError(404, 'tenant_not_found', 'no such tenant');
  if (!countries.length)
    await emit(after.tenantId, adminActivity.removeRiskRule, { ruleType: BLOCKED_COUNTRIES_RULE });
  else if (had) await emit(after.tenantId, adminActivity.updateRiskRule, { diff });
  else await emit(after.tenantId, adminActivity.createRiskRule, { ruleType: BLOCKED_COUNTRIES_RULE });
  return after;
}
