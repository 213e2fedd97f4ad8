import express from 'express';
import { z } from 'zod';
import { parse } from '../http/validate';
import { blockedCountriesBody, setBlockedCountries } from '../use-cases/tenants/blocked-countries';
import { createTenantBody } from '../use-cases/tenants/tenant-schemas';
import { renameTenant } from '../use-cases/tenants/update-tenant';
import type { ConsoleDeps, SignedIn } from './context';
import { type FormSpec, type Problem, formErrors, zodProblems } from './form-problems';
import { allowedRoute, pageKit } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';

const P = `${CONSOLE_PATH}/settings`;
const countriesField = blockedCountriesBody.shape.countries.element;
/** The page's two forms, in page order. */
const FORM: FormSpec = {
  name: { id: 'settings-name', label: 'tenants.name' },
  countries: { id: 'settings-countries', label: 'settings.countries' },
};

/**
 * Settings: the tenant's name (administrator_update_general_settings with its diff) and blocked countries
 * (the location rule, with its create/update/remove risk-rule events). Owners and Administrators.
 */
export function settingsPage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { show, emit, stepUp } = pageKit(deps, renderer);
  /** The page; a refused form is shown again with what was typed (`typed`) and its problems beside the fields. */
  const page = (
    res: express.Response,
    s: SignedIn,
    opts: { saved?: boolean; typed?: Record<string, string>; problems?: Problem[] } = {},
  ) =>
    show(
      res,
      'settings',
      'settings',
      'settings.title',
      {
        name: opts.typed?.name ?? s.tenant.name,
        countries: opts.typed?.countries ?? (s.tenant.blockedCountries ?? []).join(' '),
        nameAction: `${P}/name`,
        countriesAction: `${P}/blocked-countries`,
        saved: opts.saved ?? false,
        ...formErrors(s.locale, FORM, opts.problems ?? []),
      },
      opts.problems?.length ? 400 : 200,
    );
  router.get(
    '/settings',
    allowedRoute('tenant.update', async (req, res, s) =>
      page(res, s, { saved: req.query.saved !== undefined }),
    ),
  );
  router.post(
    '/settings/name',
    allowedRoute('tenant.update', async (req, res, s) => {
      const typed = String(req.body?.name ?? '');
      const parsed = createTenantBody.safeParse({ name: typed });
      if (!parsed.success)
        return page(res, s, { typed: { name: typed }, problems: zodProblems(parsed.error) });
      await renameTenant(deps, s.tenant, parsed.data.name, emit(req, res));
      res.redirect(303, `${P}?saved`);
    }),
  );
  router.post(
    '/settings/blocked-countries',
    allowedRoute(
      'riskRule.write',
      async (req, res, s) => {
        const typed = String(req.body?.countries ?? '');
        const codes = typed.split(/[\s,]+/).filter(Boolean);
        const parsed = z
          .object({ countries: z.array(countriesField).max(250) })
          .safeParse({ countries: codes });
        if (!parsed.success) {
          // Which code is wrong, quoted (cut short), since the list is typed as one field.
          const problems = parsed.error.issues.map((i) => {
            const code = typeof i.path[1] === 'number' ? codes[i.path[1]] : undefined;
            return { field: 'countries', message: code ? `“${code.slice(0, 20)}” ${i.message}` : i.message };
          });
          return page(res, s, { typed: { countries: typed }, problems });
        }
        await setBlockedCountries(deps, s.tenant, parsed.data.countries, emit(req, res));
        res.redirect(303, `${P}?saved`);
      },
      stepUp('riskRule.write'),
    ),
  );
  return router;
}
