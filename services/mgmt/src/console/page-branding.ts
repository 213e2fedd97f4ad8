import {
  type BrandingSettingsInput,
  type MailKind,
  type MailLocale,
  PLACEHOLDERS,
  brandingSettingsSchema,
  mailKinds,
  mailLocales,
  mailTemplateSchema,
} from '@sesame/branding';
import { MgmtError } from '@sesame/platform';
import express, { type Request, type Response } from 'express';
import { BRANDING_LINK_FIELDS, touches } from '../admins/step-up';
import { checkLogo } from '../branding/logo';
import {
  mailTemplateOf,
  resetBranding,
  saveBranding,
  saveLogo,
  saveMailTemplate,
  settingsOf,
} from '../use-cases/branding/branding-changes';
import type { ConsoleDeps, SignedIn } from './context';
import type { FormFile } from './multipart';
import { allowedRoute, pageKit, requireStepUp } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';

const P = `${CONSOLE_PATH}/branding`;
const MAIL_LABELS: Record<MailKind, string> = {
  'sign-in-code': 'branding.mail.signInCode',
  'magic-link': 'branding.mail.magicLink',
  'registration-link': 'branding.mail.registrationLink',
  'admin-invitation': 'branding.mail.adminInvitation',
};
const kindOf = (v: unknown): MailKind =>
  mailKinds.includes(v as MailKind) ? (v as MailKind) : 'sign-in-code';
const localeOf = (v: unknown, fallback: string): MailLocale =>
  mailLocales.includes(v as MailLocale)
    ? (v as MailLocale)
    : mailLocales.includes(fallback as MailLocale)
      ? (fallback as MailLocale)
      : 'en';
/** zod issues for the alert, each naming its field (`displayName: must …`) unless its message already does. */
const issuesText = (issues: { path: (string | number)[]; message: string }[]) =>
  issues
    .map((i) => {
      const field = i.path.join('.');
      return field && !i.message.startsWith(`${field}:`) ? `${field}: ${i.message}` : i.message;
    })
    .join(' ');
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** The settings form as the API's body: empty fields are "not set", a colour pair needs both colours. */
export function settingsFromForm(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of [
    'displayName',
    'cornerStyle',
    'supportUrl',
    'privacyUrl',
    'mailSenderName',
    'mailReplyTo',
  ])
    if (text(body[field])) out[field] = text(body[field]);
  for (const scheme of ['light', 'dark']) {
    const accent = text(body[`${scheme}Accent`]);
    const background = text(body[`${scheme}Background`]);
    if (accent || background) out[scheme] = { accent, background };
  }
  return out;
}

/**
 * Branding: the tenant's pages and mails (Owners and Administrators). The settings form (with the logo file),
 * Reset to default, one mail template at a time, and previews of the sign-in page and the mail in light and
 * dark (page-branding-preview.ts). A refused value (a low-contrast pair, a bad logo, a placeholder) is shown
 * in an alert naming the problem, with what was typed kept.
 */
export function brandingPage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { show, emit } = pageKit(deps, renderer);
  const changeDeps = { branding: deps.dir.branding, clock: deps.clock };

  const render = async (
    req: Request,
    res: Response,
    s: SignedIn,
    opts: {
      error?: string;
      form?: Record<string, unknown>;
      template?: Record<string, unknown>;
      status?: number;
    } = {},
  ) => {
    const settings = settingsOf(await deps.dir.branding.get(s.tenant.tenantId));
    const kind = kindOf(opts.template?.mail ?? req.query.mail);
    const locale = localeOf(opts.template?.locale ?? req.query.locale, s.locale);
    const { template, custom } = await mailTemplateOf(deps.dir.branding, s.tenant.tenantId, kind, locale);
    const f = opts.form;
    const value = (field: string, saved: unknown) =>
      f ? text(f[field]) : typeof saved === 'string' ? saved : '';
    const q = new URLSearchParams({ mail: kind, locale });
    show(
      res,
      'branding',
      'branding',
      'branding.title',
      {
        action: P,
        resetAction: `${P}/reset`,
        mailAction: `${P}/mail`,
        error: opts.error,
        saved: req.query.saved !== undefined,
        displayName: value('displayName', settings.displayName),
        lightAccent: value('lightAccent', settings.light?.accent),
        lightBackground: value('lightBackground', settings.light?.background),
        darkAccent: value('darkAccent', settings.dark?.accent),
        darkBackground: value('darkBackground', settings.dark?.background),
        corners: ['rounded', 'square', 'pill'].map((c) => ({
          value: c,
          label: `branding.corner.${c}`,
          selected: value('cornerStyle', settings.cornerStyle) === c,
        })),
        supportUrl: value('supportUrl', settings.supportUrl),
        privacyUrl: value('privacyUrl', settings.privacyUrl),
        mailSenderName: value('mailSenderName', settings.mailSenderName),
        mailReplyTo: value('mailReplyTo', settings.mailReplyTo),
        hasLogo: Boolean(settings.logo),
        mails: mailKinds.map((k) => ({ value: k, label: MAIL_LABELS[k], selected: k === kind })),
        locales: mailLocales.map((l) => ({
          value: l,
          label: `branding.locale.${l}`,
          selected: l === locale,
        })),
        mail: kind,
        locale,
        custom,
        placeholders: PLACEHOLDERS[kind].allowed.map((name) => `{{${name}}}`).join(', '),
        template: opts.template ?? template,
        pagePreviewLight: `${P}/preview/page?scheme=light`,
        pagePreviewDark: `${P}/preview/page?scheme=dark`,
        mailPreviewLight: `${P}/preview/mail?${q}&scheme=light`,
        mailPreviewDark: `${P}/preview/mail?${q}&scheme=dark`,
      },
      opts.status,
    );
  };

  router.get(
    '/branding',
    allowedRoute('branding.read', (req, res, s) => render(req, res, s)),
  );

  router.post(
    '/branding',
    allowedRoute('branding.write', async (req, res, s) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const parsed = brandingSettingsSchema.safeParse(settingsFromForm(body));
      if (!parsed.success)
        return render(req, res, s, {
          error: issuesText(parsed.error.issues),
          form: body,
          status: 400,
        });
      const scope = { tenantId: s.tenant.tenantId };
      // A new support or privacy link sends people elsewhere: the step-up table's branding.links.
      const current = settingsOf(await deps.dir.branding.get(scope.tenantId));
      if (touches(current, parsed.data, BRANDING_LINK_FIELDS)) requireStepUp(deps, req, s, 'branding.links');
      const file = body.logo as FormFile | undefined;
      if (file && typeof file === 'object') {
        try {
          await saveLogo(changeDeps, scope, checkLogo(file.contentType, file.data), emit(req, res));
        } catch (err) {
          if (!(err instanceof MgmtError)) throw err;
          return render(req, res, s, { error: err.message, form: body, status: 400 });
        }
      }
      await saveBranding(changeDeps, scope, parsed.data as BrandingSettingsInput, emit(req, res));
      res.redirect(303, `${P}?saved`);
    }),
  );

  router.post(
    '/branding/reset',
    allowedRoute('branding.write', async (req, res, s) => {
      await resetBranding(changeDeps, { tenantId: s.tenant.tenantId }, emit(req, res));
      res.redirect(303, `${P}?saved`);
    }),
  );

  router.post(
    '/branding/mail',
    allowedRoute('branding.write', async (req, res, s) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const kind = kindOf(body.mail);
      const locale = localeOf(body.locale, s.locale);
      const fields = {
        subject: body.subject,
        preheader: body.preheader ?? '',
        heading: body.heading,
        body: body.body,
        button: body.button ?? '',
      };
      const parsed = mailTemplateSchema(kind).safeParse(fields);
      if (!parsed.success)
        return render(req, res, s, {
          error: issuesText(parsed.error.issues),
          template: { ...fields, mail: kind, locale },
          status: 400,
        });
      await saveMailTemplate(changeDeps, s.tenant.tenantId, kind, locale, parsed.data, emit(req, res));
      res.redirect(303, `${P}?${new URLSearchParams({ mail: kind, locale })}&saved`);
    }),
  );
  return router;
}
