// Over 300 lines: the application form in both directions (an app to form text, a posted form to the admin
// API's update body) over the same field names, and every field's spec in page order. The security sections
// of Advanced are split out to application-form-security.ts; the next section to grow moves out the same way.
import type { Application } from '../directory/model';
import { type ConsoleLocale, ct } from '../i18n';
import {
  SECURITY_FIELDS,
  type SecurityForm,
  securityOfApp,
  securityOfBody,
  securityUpdate,
} from './application-form-security';
import type { FieldSpec, FormErrors, FormField } from './field-errors';

/**
 * The settings form of an application's page as text: what the page shows (from the application, or as typed
 * when a value was refused) and what a POST is read from. Field names are the form's `name`s. The security
 * sections of Advanced (client authentication, token binding, profile) are application-form-security.ts's.
 */
export interface AppForm extends SecurityForm {
  name: string;
  redirectUris: string;
  postLogoutRedirectUris: string;
  refreshEnabled: boolean;
  refreshAbsolute: string;
  refreshIdle: string;
  registrationLinkExpiresIn: string;
  registrationRedirectUri: string;
  auxLinkPrefix: string;
  allowedScopes: string;
  backchannelLogoutUri: string;
  backchannelLogoutSessionRequired: boolean;
  cibaPing: boolean;
  cibaEndpoint: string;
  cibaStandard: boolean;
  cibaExpiresIn: string;
  /** JAR: RS256, PS256 or ES256; empty: any request object. */
  requestObjectSigningAlg: string;
  /** RS256, PS256 or ES256; empty: RS256 (the default). */
  idTokenSignedResponseAlg: string;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const str = (v: number | undefined) => (v === undefined ? '' : String(v));

export function formOfApp(app: Application): AppForm {
  return {
    name: app.name,
    redirectUris: app.redirectUris.join('\n'),
    postLogoutRedirectUris: (app.postLogoutRedirectUris ?? []).join('\n'),
    refreshEnabled: app.refreshTokens?.enabled ?? false,
    refreshAbsolute: str(app.refreshTokens?.absoluteLifetimeS),
    refreshIdle: str(app.refreshTokens?.idleLifetimeS),
    registrationLinkExpiresIn: str(app.registrationLinkExpiresIn),
    registrationRedirectUri: app.registrationRedirectUri ?? '',
    auxLinkPrefix: app.auxLinkPrefix ?? '',
    allowedScopes: app.allowedScopes.join(' '),
    backchannelLogoutUri: app.backchannelLogoutUri ?? '',
    backchannelLogoutSessionRequired: app.backchannelLogoutSessionRequired ?? false,
    cibaPing: app.ciba.mode === 'ping',
    cibaEndpoint: app.ciba.notificationEndpoint ?? '',
    cibaStandard: app.ciba.strictErrors,
    cibaExpiresIn: str(app.ciba.expiresIn),
    requestObjectSigningAlg: app.requestObjectSigningAlg ?? '',
    idTokenSignedResponseAlg: app.idTokenSignedResponseAlg ?? '',
    ...securityOfApp(app),
  };
}

/** What was typed, to show it again beside the refusal (a field the POST lacks keeps the application's). */
export function formOfBody(f: Record<string, unknown>, app: Application): AppForm {
  const was = formOfApp(app);
  const typed = (key: string, fallback: string) => (key in f ? text(f[key]) : fallback);
  const full = f.refreshFields !== undefined;
  return {
    name: typed('name', was.name),
    redirectUris: typed('redirectUris', was.redirectUris),
    postLogoutRedirectUris: typed('postLogoutRedirectUris', was.postLogoutRedirectUris),
    refreshEnabled: full ? f.refreshTokens === 'on' : was.refreshEnabled,
    refreshAbsolute: typed('refreshAbsoluteLifetimeS', was.refreshAbsolute),
    refreshIdle: typed('refreshIdleLifetimeS', was.refreshIdle),
    registrationLinkExpiresIn: typed('registrationLinkExpiresIn', was.registrationLinkExpiresIn),
    registrationRedirectUri: typed('registrationRedirectUri', was.registrationRedirectUri),
    auxLinkPrefix: typed('auxLinkPrefix', was.auxLinkPrefix),
    allowedScopes: typed('allowedScopes', was.allowedScopes),
    backchannelLogoutUri: typed('backchannelLogoutUri', was.backchannelLogoutUri),
    backchannelLogoutSessionRequired: full
      ? f.backchannelLogoutSessionRequired === 'on'
      : was.backchannelLogoutSessionRequired,
    cibaPing: 'cibaMode' in f ? f.cibaMode === 'ping' : was.cibaPing,
    cibaEndpoint: typed('cibaNotificationEndpoint', was.cibaEndpoint),
    cibaStandard: f.cibaPendingAnswer === 'standard' || (!('cibaPendingAnswer' in f) && was.cibaStandard),
    cibaExpiresIn: typed('cibaExpiresIn', was.cibaExpiresIn),
    requestObjectSigningAlg: full ? text(f.requestObjectSigningAlg) : was.requestObjectSigningAlg,
    idTokenSignedResponseAlg: full ? text(f.idTokenSignedResponseAlg) : was.idTokenSignedResponseAlg,
    ...securityOfBody(f, app),
  };
}

const lines = (v: unknown) =>
  String(v ?? '')
    .split(/[\r\n\s]+/)
    .map((x) => x.trim())
    .filter(Boolean);
const optional = (v: unknown) => (String(v ?? '').trim() === '' ? null : String(v).trim());
/** A number field: empty is null (not set); anything else is Number() of it, so "abc" is refused as NaN. */
const seconds = (v: unknown) => {
  const s = optional(v);
  return s === null ? null : Number(s);
};

/**
 * The update body (before the schema) of a settings POST. The refresh-token, back-channel sid, request object
 * and ID token alg fields apply only when the form carried them (`refreshFields`), the security sections' as
 * application-form-security.ts says: a form without them (a script, an older page) keeps those settings.
 * CIBA's pending poll answer and request lifetime likewise stay when absent. Throws a field refusal for a JWK
 * Set that is not JSON (in `locale`).
 */
export function updateOfForm(
  f: Record<string, unknown>,
  app: Application,
  locale: ConsoleLocale,
): Record<string, unknown> {
  const expires = seconds(f.registrationLinkExpiresIn);
  const cibaExpires = 'cibaExpiresIn' in f ? seconds(f.cibaExpiresIn) : (app.ciba.expiresIn ?? null);
  const strict =
    f.cibaPendingAnswer === 'standard'
      ? true
      : f.cibaPendingAnswer === 'spec'
        ? false
        : app.ciba.strictErrors;
  const endpoint = optional(f.cibaNotificationEndpoint);
  const body: Record<string, unknown> = {
    name: String(f.name ?? ''),
    redirectUris: lines(f.redirectUris),
    registrationRedirectUri: optional(f.registrationRedirectUri),
    auxLinkPrefix: optional(f.auxLinkPrefix),
    allowedScopes: lines(f.allowedScopes),
    registrationLinkExpiresIn: expires,
    postLogoutRedirectUris: lines(f.postLogoutRedirectUris),
    backchannelLogoutUri: optional(f.backchannelLogoutUri),
    ciba: {
      mode: f.cibaMode === 'ping' ? 'ping' : 'poll',
      ...(endpoint ? { notificationEndpoint: endpoint } : {}),
      strictErrors: strict,
      ...(cibaExpires !== null ? { expiresIn: cibaExpires } : {}),
    },
    ...securityUpdate(f, app, locale),
  };
  if (f.refreshFields !== undefined) {
    const enabled = f.refreshTokens === 'on';
    const absolute = seconds(f.refreshAbsoluteLifetimeS);
    const idle = seconds(f.refreshIdleLifetimeS);
    body.backchannelLogoutSessionRequired = f.backchannelLogoutSessionRequired === 'on';
    body.requestObjectSigningAlg = optional(f.requestObjectSigningAlg);
    body.idTokenSignedResponseAlg = optional(f.idTokenSignedResponseAlg);
    // Off with no lifetimes typed: no refresh-token settings at all (as an application that never had them).
    body.refreshTokens =
      !enabled && absolute === null && idle === null
        ? null
        : {
            enabled,
            ...(absolute !== null ? { absoluteLifetimeS: absolute } : {}),
            ...(idle !== null ? { idleLifetimeS: idle } : {}),
          };
  }
  return body;
}

/** Schema paths that name a form field by another name. */
export const FIELD_ALIASES: Record<string, string> = {
  'refreshTokens.absoluteLifetimeS': 'refreshAbsoluteLifetimeS',
  'refreshTokens.idleLifetimeS': 'refreshIdleLifetimeS',
  refreshTokens: 'refreshAbsoluteLifetimeS',
  'ciba.notificationEndpoint': 'cibaNotificationEndpoint',
  'ciba.expiresIn': 'cibaExpiresIn',
  ciba: 'cibaNotificationEndpoint',
  'ciba.mode': 'cibaNotificationEndpoint',
};

/** The settings form's fields in page order (textareas and checkboxes included, for the error list). */
const FIELDS: Record<string, FieldSpec<AppForm>> = {
  name: { id: 'app-name', label: 'apps.name', value: (f) => f.name },
  redirectUris: { id: 'app-redirects', label: 'apps.redirectUris', value: (f) => f.redirectUris },
  postLogoutRedirectUris: {
    id: 'app-post-logout',
    label: 'apps.postLogoutRedirectUris',
    value: (f) => f.postLogoutRedirectUris,
  },
  refreshAbsoluteLifetimeS: {
    id: 'app-refresh-absolute',
    label: 'advanced.refreshAbsolute',
    value: (f) => f.refreshAbsolute,
    type: 'number',
    hint: 'advanced.refreshAbsoluteHint',
    advanced: true,
  },
  refreshIdleLifetimeS: {
    id: 'app-refresh-idle',
    label: 'advanced.refreshIdle',
    value: (f) => f.refreshIdle,
    type: 'number',
    hint: 'advanced.refreshIdleHint',
    advanced: true,
  },
  registrationLinkExpiresIn: {
    id: 'app-link-validity',
    label: 'apps.linkValidity',
    value: (f) => f.registrationLinkExpiresIn,
    type: 'number',
    advanced: true,
  },
  registrationRedirectUri: {
    id: 'app-registration',
    label: 'apps.registrationRedirectUri',
    value: (f) => f.registrationRedirectUri,
    type: 'url',
    advanced: true,
  },
  auxLinkPrefix: {
    id: 'app-aux',
    label: 'apps.auxLinkPrefix',
    value: (f) => f.auxLinkPrefix,
    type: 'url',
    advanced: true,
  },
  allowedScopes: {
    id: 'app-scopes',
    label: 'apps.allowedScopes',
    entries: 'item',
    value: (f) => f.allowedScopes,
    advanced: true,
  },
  backchannelLogoutUri: {
    id: 'app-backchannel-logout',
    label: 'apps.backchannelLogoutUri',
    value: (f) => f.backchannelLogoutUri,
    type: 'url',
    advanced: true,
  },
  cibaNotificationEndpoint: {
    id: 'app-ciba-endpoint',
    label: 'apps.cibaEndpoint',
    value: (f) => f.cibaEndpoint,
    type: 'url',
    advanced: true,
  },
  requestObjectSigningAlg: {
    id: 'app-request-object-alg',
    label: 'advanced.requestObjectAlg',
    value: (f) => f.requestObjectSigningAlg,
    hint: 'advanced.requestObjectAlgHint',
    advanced: true,
  },
  idTokenSignedResponseAlg: {
    id: 'app-id-token-alg',
    label: 'advanced.idTokenAlg',
    value: (f) => f.idTokenSignedResponseAlg,
    hint: 'advanced.idTokenAlgHint',
    advanced: true,
  },
  ...SECURITY_FIELDS,
  cibaExpiresIn: {
    id: 'app-ciba-expires',
    label: 'advanced.cibaExpiresIn',
    value: (f) => f.cibaExpiresIn,
    type: 'number',
    hint: 'advanced.cibaExpiresHint',
    advanced: true,
  },
};

/** The fields as field-errors.ts names them (id and label in the page's language). */
export const formFields = (locale: ConsoleLocale): Record<string, FormField> =>
  Object.fromEntries(
    Object.entries(FIELDS).map(([name, spec]) => [
      name,
      { id: spec.id, label: ct(locale, spec.label), ...(spec.entries ? { entries: spec.entries } : {}) },
    ]),
  );

/** Each field for the template: its value, its message and autofocus when refused, what describes it. */
export function fieldViews(form: AppForm, errors?: FormErrors) {
  const views: Record<string, Record<string, unknown>> = {};
  for (const [name, spec] of Object.entries(FIELDS)) {
    const error = errors?.byField[name];
    const describedBy = [error ? `${spec.id}-error` : '', spec.hint ? `${spec.id}-hint` : '']
      .filter(Boolean)
      .join(' ');
    views[name] = {
      id: spec.id,
      name,
      label: spec.label,
      type: spec.type ?? 'text',
      ...(spec.type === 'number' ? { min: '60' } : {}),
      value: spec.value(form),
      ...(spec.hint ? { hint: spec.hint } : {}),
      ...(error ? { error } : {}),
      ...(errors?.focus[name] ? { focus: true } : {}),
      ...(describedBy ? { describedBy } : {}),
    };
  }
  const advancedOpen = Object.keys(errors?.byField ?? {}).some((n) => FIELDS[n]?.advanced);
  return { fields: views, advancedOpen };
}
