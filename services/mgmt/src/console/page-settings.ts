import express from 'express';
import { z } from 'zod';
import { parse } from '../http/validate';
import { blockedCountriesBody, setBlockedCountries } from '../use-cases/tenants/blocked-countries';
import { createTenantBody } from '../use-cases/tenants/tenant-schemas';
import { renameTenant } from '../use-cases/tenants/update-tenant';
import type { ConsoleDeps } from './context';
import { allowedRoute, pageKit } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';

const P = `${CONSOLE_PATH}/settings`;
const countriesField = blockedCountriesBody.shape.countries.element;

/**
 * Settings: the tenant's name (administrator_update_general_settings with its diff) and blocked countries
 * (the location rule, with its create/update/remove risk-rule events). Owners and Administrators.
 */
export function settingsPage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { show, emit, stepUp } = pageKit(deps, renderer);
  router.get(
    '/settings',
    allowedRoute('tenant.update', async (req, res, s) => {
      show(res, 'settings', 'settings', 'settings.title', {
        name: s.tenant.name,
        countries: (s.tenant.blockedCountries ?? []).join(' '),
        nameAction: `${P}/name`,
        countriesAction: `${P}/blocked-countries`,
        saved: req.query.saved !== undefined,
      });
    }),
  );
  router.post(
    '/settings/name',
    allowedRoute('tenant.update', async (req, res, s) => {
      const { name } = parse(createTenantBody, { name: req.body?.name }, 'form');
      await renameTenant(deps, s.tenant, name, emit(req, res));
      res.redirect(303, `${P}?saved`);
    }),
  );
  router.post(
    '/settings/blocked-countries',
    allowedRoute(
      'riskRule.write',
      async (req, res, s) => {
        const codes = String(req.body?.countries ?? '')
          .split(/[\s,]+/)
          .filter(Boolean);
        const countries = parse(
          z.object({ countries: z.array(countriesField).max(250) }),
          { countries: codes },
          'form',
        );
        await setBlockedCountries(deps, s.tenant, countries.countries, emit(req, res));
        res.redirect(303, `${P}?saved`);
      },
      stepUp('riskRule.write'),
    ),
  );
  return router;
}
