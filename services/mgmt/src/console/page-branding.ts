// Over 300 lines on purpose: the Branding page is one form (settings, logo, mail texts) whose validation maps each schema issue to its field; the colour script lives in branding-script.ts.
import {
  type BrandingSettingsInput,
  HEX_COLOUR,
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
import type { z } from 'zod';
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
import { BRANDING_SCRIPT, DEFAULT_COLOURS, brandingScriptPath, brandingScriptRoute } from './branding-script';
import type { ConsoleDeps, SignedIn } from './context';
import { type FormSpec, type Problem, formErrors, refusalProblems, zodProblems } from './form-problems';
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
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** The settings form's fields in page order, then the mail template's. */
const SETTINGS_FORM: FormSpec = {
  displayName: { id: 'b-name', label: 'branding.displayName' },
  logo: { id: 'b-logo', label: 'branding.logo' },
  lightAccent: { id: 'b-la', label: 'branding.accent' },
  lightBackground: { id: 'b-lb', label: 'branding.background' },
  darkAccent: { id: 'b-da', label: 'branding.darkAccent' },
  darkBackground: { id: 'b-db', label: 'branding.darkBackground' },
  cornerStyle: { id: 'b-corner', label: 'branding.corners' },
  supportUrl: { id: 'b-support', label: 'branding.supportUrl' },
  privacyUrl: { id: 'b-privacy', label: 'branding.privacyUrl' },
  mailSenderName: { id: 'b-sender', label: 'branding.senderName' },
  mailReplyTo: { id: 'b-reply', label: 'branding.replyTo' },
};
const MAIL_FORM: FormSpec = {
  subject: { id: 'b-subject', label: 'branding.subject' },
  preheader: { id: 'b-pre', label: 'branding.preheader' },
  heading: { id: 'b-heading', label: 'branding.heading' },
  body: { id: 'b-body', label: 'branding.body' },
  button: { id: 'b-button', label: 'branding.button' },
};

/**
 * The settings schema's issues beside their fields: `light.accent` is lightAccent; a contrast problem of a
 * scheme (path `light`) goes beside the colour it is about (the background for text on it, else the accent),
 * without its `light: ` prefix (the field's label says which).
 */
function settingsProblems(error: z.ZodError): Problem[] {
  return error.issues.map((i) => {
    const [first, second] = i.path.map(String);
    if ((first === 'light' || first === 'dark') && second)
      return { field: `${first}${second[0]!.toUpperCase()}${second.slice(1)}`, message: i.message };
    if (first === 'light' || first === 'dark') {
      const message = i.message.replace(/^(light|dark): /, '');
      return { field: `${first}${message.startsWith('text ') ? 'Background' : 'Accent'}`, message };
    }
    return first ? { field: first, message: i.message } : { message: i.message };
  });
}

/**
 * The mail template's issues beside their fields: the placeholder checks name theirs in the message
 * (`body: unknown placeholder …`); a required placeholder missing is the body's.
 */
function mailProblems(error: z.ZodError): Problem[] {
  return error.issues.map((i) => {
    if (i.path.length) return { field: i.path.join('.'), message: i.message };
    const named = /^(\w+): (.*)$/s.exec(i.message);
    if (named && named[1]! in MAIL_FORM) return { field: named[1]!, message: named[2]! };
    return { field: 'body', message: i.message };
  });
}

/**
 * The four colour fields as typed or saved, and each one's picker: the same colour, or the default it stands
 * for when empty (a colour input always holds a colour).
 */
function colourFields(
  values: Record<'lightAccent' | 'lightBackground' | 'darkAccent' | 'darkBackground', string>,
) {
  const out: Record<string, string> = { ...values };
  for (const [field, v] of Object.entries(values)) {
    const scheme = field.startsWith('light') ? 'light' : 'dark';
    const fallback = DEFAULT_COLOURS[scheme][field.endsWith('Accent') ? 'accent' : 'background'];
    out[`${field}Picker`] = HEX_COLOUR.test(v) ? v.toLowerCase() : fallback;
  }
  return out;
}

/**
 * The settings form as the API's body: empty fields are "not set"; a colour pair with one colour empty takes
 * Sesame's default for it (issue 37: an accent alone is a brand, not an error).
 */
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
  for (const scheme of ['light', 'dark'] as const) {
    const accent = text(body[`${scheme}Accent`]);
    const background = text(body[`${scheme}Background`]);
    if (accent || background)
      out[scheme] = {
        accent: accent || DEFAULT_COLOURS[scheme].accent,
        background: background || DEFAULT_COLOURS[scheme].background,
      };
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
      problems?: Problem[];
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
        ...formErrors(s.locale, opts.template ? MAIL_FORM : SETTINGS_FORM, opts.problems ?? []),
        saved: req.query.saved !== undefined,
        displayName: value('displayName', settings.displayName),
        ...colourFields({
          lightAccent: value('lightAccent', settings.light?.accent),
          lightBackground: value('lightBackground', settings.light?.background),
          darkAccent: value('darkAccent', settings.dark?.accent),
          darkBackground: value('darkBackground', settings.dark?.background),
        }),
        script: brandingScriptPath,
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
      ["script-src 'self'"],
    );
  };

  router.get(
    '/branding',
    allowedRoute('branding.read', (req, res, s) => render(req, res, s)),
  );
  router.get(brandingScriptRoute, (_req, res) => {
    res
      .set({
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
      })
      .send(BRANDING_SCRIPT);
  });

  router.post(
    '/branding',
    allowedRoute('branding.write', async (req, res, s) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const parsed = brandingSettingsSchema.safeParse(settingsFromForm(body));
      if (!parsed.success)
        return render(req, res, s, {
          problems: settingsProblems(parsed.error),
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
          return render(req, res, s, { problems: refusalProblems(err, 'logo'), form: body, status: 400 });
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
          problems: mailProblems(parsed.error),
          template: { ...fields, mail: kind, locale },
          status: 400,
        });
      await saveMailTemplate(changeDeps, s.tenant.tenantId, kind, locale, parsed.data, emit(req, res));
      res.redirect(303, `${P}?${new URLSearchParams({ mail: kind, locale })}&saved`);
    }),
  );
  return router;
}
