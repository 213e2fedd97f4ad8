import { type BrandingSettingsInput, brandingSettingsSchema } from '@sesame/branding';
import { MgmtError } from '@sesame/platform';
import express, { type Response } from 'express';
import { BRANDING_LINK_FIELDS, touches } from '../admins/step-up';
import type { Application } from '../directory/model';
import { fieldErrors } from '../http/validate';
import { ct } from '../i18n';
import { saveBranding, settingsOf } from '../use-cases/branding/branding-changes';
import { requireApplication } from '../use-cases/views';
import type { ConsoleDeps, SignedIn } from './context';
import { ConsoleError } from './errors';
import { type FormErrors, formErrors } from './field-errors';
import { settingsFromForm } from './page-branding';
import { allowedRoute, pageKit, requireStepUp } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';

/** The fields of an application's branding, in page order: form name → element id, label key, type. */
const FIELDS = [
  ['displayName', 'ab-name', 'branding.displayName', 'text'],
  ['lightAccent', 'ab-la', 'branding.accent', 'text'],
  ['lightBackground', 'ab-lb', 'branding.background', 'text'],
  ['darkAccent', 'ab-da', 'branding.darkAccent', 'text'],
  ['darkBackground', 'ab-db', 'branding.darkBackground', 'text'],
  ['supportUrl', 'ab-support', 'branding.supportUrl', 'url'],
  ['privacyUrl', 'ab-privacy', 'branding.privacyUrl', 'url'],
  ['mailSenderName', 'ab-sender', 'branding.senderName', 'text'],
] as const;
/** The settings schema's paths as form fields (a contrast problem of a scheme is its accent's). */
const ALIASES: Record<string, string> = {
  light: 'lightAccent',
  'light.accent': 'lightAccent',
  'light.background': 'lightBackground',
  dark: 'darkAccent',
  'dark.accent': 'darkAccent',
  'dark.background': 'darkBackground',
};
type Form = Record<(typeof FIELDS)[number][0], string>;

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * An application's own branding (an override of its tenant's, field by field: an empty field is the
 * tenant's): display name, colours, support and privacy links, mail sender name. The admin API's
 * /applications/:appId/branding; the logo and mail texts stay the tenant's here. Owners and Administrators;
 * a changed link needs a recent sign-in (branding.links), as on the Branding page.
 */
export function applicationBrandingPage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { show, emit } = pageKit(deps, renderer);
  const changeDeps = { branding: deps.dir.branding, clock: deps.clock };
  const load = (s: SignedIn, appId: string) =>
    requireApplication(deps.dir, s.tenant.tenantId, appId).catch(() => {
      throw new ConsoleError(404, 'error.notFound');
    });
  const render = async (
    res: Response,
    s: SignedIn,
    app: Application,
    opts: { form?: Form; errors?: FormErrors; saved?: boolean; status?: number } = {},
  ) => {
    const saved = settingsOf(await deps.dir.branding.get(s.tenant.tenantId, app.appId));
    const form: Form = opts.form ?? {
      displayName: saved.displayName ?? '',
      lightAccent: saved.light?.accent ?? '',
      lightBackground: saved.light?.background ?? '',
      darkAccent: saved.dark?.accent ?? '',
      darkBackground: saved.dark?.background ?? '',
      supportUrl: saved.supportUrl ?? '',
      privacyUrl: saved.privacyUrl ?? '',
      mailSenderName: saved.mailSenderName ?? '',
    };
    const appHref = `${CONSOLE_PATH}/applications/${encodeURIComponent(app.appId)}`;
    const fields = Object.fromEntries(
      FIELDS.map(([name, id, label, type]) => {
        const error = opts.errors?.byField[name];
        return [
          name,
          {
            id,
            name,
            label,
            type,
            value: form[name],
            ...(error ? { error, describedBy: `${id}-error` } : {}),
            ...(opts.errors?.focus[name] ? { focus: true } : {}),
          },
        ];
      }),
    );
    show(
      res,
      'applicationBranding',
      'applications',
      'apps.title',
      {
        title: ct(s.locale, 'appBranding.title', { name: app.name }),
        appName: app.name,
        appHref,
        action: `${appHref}/branding`,
        fields,
        saved: opts.saved ?? false,
        ...(opts.errors
          ? { errors: { ...opts.errors.byField, list: opts.errors.list }, focus: opts.errors.focus }
          : {}),
      },
      opts.status,
    );
  };
  router.get(
    '/applications/:appId/branding',
    allowedRoute('branding.read', async (req, res, s) => {
      await render(res, s, await load(s, req.params.appId!), { saved: req.query.saved !== undefined });
    }),
  );
  router.post(
    '/applications/:appId/branding',
    allowedRoute('branding.write', async (req, res, s) => {
      const app = await load(s, req.params.appId!);
      const body = (req.body ?? {}) as Record<string, unknown>;
      const form = Object.fromEntries(FIELDS.map(([name]) => [name, text(body[name])])) as Form;
      const parsed = brandingSettingsSchema.safeParse(settingsFromForm(form));
      if (!parsed.success) {
        const labels = Object.fromEntries(
          FIELDS.map(([name, id, label]) => [name, { id, label: ct(s.locale, label) }]),
        );
        const refusal = new MgmtError(400, 'invalid_request', 'invalid form', fieldErrors(parsed.error));
        const errors = formErrors(refusal, labels, ALIASES)!;
        await render(res, s, app, { form, errors, status: 400 });
        return;
      }
      const scope = { tenantId: s.tenant.tenantId, appId: app.appId };
      const current = settingsOf(await deps.dir.branding.get(scope.tenantId, scope.appId));
      if (touches(current, parsed.data, BRANDING_LINK_FIELDS)) requireStepUp(deps, req, s, 'branding.links');
      await saveBranding(changeDeps, scope, parsed.data as BrandingSettingsInput, emit(req, res));
      res.redirect(303, `${CONSOLE_PATH}/applications/${encodeURIComponent(app.appId)}/branding?saved`);
    }),
  );
  return router;
}
