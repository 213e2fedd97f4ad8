import { type Application, clientAuthMethods } from '../directory/model';
import { type ConsoleLocale, ct } from '../i18n';
import { type FieldSpec, fieldRefusal } from './field-errors';

/**
 * The security sections of an application's Advanced settings (issue 41), split from application-form.ts:
 * Client authentication (how the app proves itself, its public keys by value or by URL, its certificate's
 * subject DN), Token binding (DPoP, certificate-bound tokens) and Security profile (PAR, FAPI 2.0). The admin
 * API checks the fields together (client-keys.ts, security-profile.ts); this file turns them into text and
 * back. The DN, binding and profile apply when the form carried `refreshFields`, the method, keys and PAR
 * when it carried `clientAuthFields`: a script or an older page without them keeps those settings.
 */
export interface SecurityForm {
  /** One of clientAuthMethods for a confidential client; `none` for a public one. */
  tokenEndpointAuthMethod: string;
  /** The JWK Set as indented JSON; empty: none. */
  jwks: string;
  jwksUri: string;
  /** tls_client_auth: the subject DN of the app's certificate. */
  tlsClientAuthSubjectDn: string;
  dpopBoundAccessTokens: boolean;
  tlsClientCertificateBoundAccessTokens: boolean;
  requirePushedAuthorizationRequests: boolean;
  /** FAPI 2.0 Security Profile (securityProfile fapi2). */
  fapi2: boolean;
}

/** What a public client's select says: it has no secret and authenticates with nothing (PKCE instead). */
const PUBLIC_METHOD = 'none';
/** What an absent method means for a confidential client: its secret, by HTTP Basic (or in the form). */
const DEFAULT_METHOD = 'client_secret_basic';

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const optional = (v: unknown) => (text(v).trim() === '' ? null : text(v).trim());

export function securityOfApp(app: Application): SecurityForm {
  return {
    tokenEndpointAuthMethod:
      app.clientType === 'public' ? PUBLIC_METHOD : (app.tokenEndpointAuthMethod ?? DEFAULT_METHOD),
    jwks: app.jwks ? JSON.stringify(app.jwks, null, 2) : '',
    jwksUri: app.jwksUri ?? '',
    tlsClientAuthSubjectDn: app.tlsClientAuthSubjectDn ?? '',
    dpopBoundAccessTokens: app.dpopBoundAccessTokens ?? false,
    tlsClientCertificateBoundAccessTokens: app.tlsClientCertificateBoundAccessTokens ?? false,
    requirePushedAuthorizationRequests: app.requirePushedAuthorizationRequests ?? false,
    fapi2: app.securityProfile === 'fapi2',
  };
}

/** What was typed, to show it again beside a refusal (what the form did not carry stays the app's). */
export function securityOfBody(f: Record<string, unknown>, app: Application): SecurityForm {
  const was = securityOfApp(app);
  const older =
    f.refreshFields === undefined
      ? {}
      : {
          tlsClientAuthSubjectDn: text(f.tlsClientAuthSubjectDn),
          dpopBoundAccessTokens: f.dpopBoundAccessTokens === 'on',
          tlsClientCertificateBoundAccessTokens: f.tlsClientCertificateBoundAccessTokens === 'on',
          fapi2: f.securityProfile === 'fapi2',
        };
  const auth =
    f.clientAuthFields === undefined
      ? {}
      : {
          tokenEndpointAuthMethod: text(f.tokenEndpointAuthMethod),
          jwks: text(f.jwks),
          jwksUri: text(f.jwksUri),
          requirePushedAuthorizationRequests: f.requirePushedAuthorizationRequests === 'on',
        };
  return { ...was, ...older, ...auth };
}

/** The app's JWK Set as posted: empty is none; text that is not JSON is refused beside its textarea. */
function jwksOf(posted: unknown, locale: ConsoleLocale): unknown {
  const json = text(posted).trim();
  if (json === '') return null;
  try {
    return JSON.parse(json);
  } catch {
    throw fieldRefusal('jwks', ct(locale, 'advanced.jwksNotJson'));
  }
}

/**
 * The sections' part of the update body (before the schema). The default method keeps an absent method
 * absent (so saving an untouched page changes nothing); `none` is only a public client's, and anything else
 * is the schema's to refuse (beside the select).
 */
export function securityUpdate(
  f: Record<string, unknown>,
  app: Application,
  locale: ConsoleLocale,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (f.refreshFields !== undefined) {
    body.tlsClientAuthSubjectDn = optional(f.tlsClientAuthSubjectDn);
    body.dpopBoundAccessTokens = f.dpopBoundAccessTokens === 'on';
    body.tlsClientCertificateBoundAccessTokens = f.tlsClientCertificateBoundAccessTokens === 'on';
    body.securityProfile = f.securityProfile === 'fapi2' ? 'fapi2' : null;
  }
  if (f.clientAuthFields !== undefined) {
    const method = text(f.tokenEndpointAuthMethod).trim();
    body.tokenEndpointAuthMethod =
      method === '' || (method === PUBLIC_METHOD && app.clientType === 'public')
        ? null
        : method === DEFAULT_METHOD && app.tokenEndpointAuthMethod !== DEFAULT_METHOD
          ? null
          : method;
    body.jwks = jwksOf(f.jwks, locale);
    body.jwksUri = optional(f.jwksUri);
    body.requirePushedAuthorizationRequests = f.requirePushedAuthorizationRequests === 'on';
  }
  return body;
}

/** The select's choices: `none` alone for a public client, else every method (the default named so). */
export function authMethodOptions(app: Application, chosen: string) {
  const values = app.clientType === 'public' ? [PUBLIC_METHOD] : [...clientAuthMethods];
  return values.map((value) => ({
    value,
    ...(value === PUBLIC_METHOD ? { labelKey: 'advanced.authMethodNone' } : {}),
    ...(value === DEFAULT_METHOD ? { labelKey: 'advanced.authMethodDefault' } : {}),
    selected: value === chosen,
  }));
}

const checkbox = (on: (f: SecurityForm) => boolean, value: string) => (f: SecurityForm) =>
  on(f) ? value : '';

/** The sections' fields in page order (application-form.ts's FIELDS takes them in their place). */
export const SECURITY_FIELDS: Record<string, FieldSpec<SecurityForm>> = {
  tokenEndpointAuthMethod: {
    id: 'app-auth-method',
    label: 'advanced.authMethod',
    value: (f) => f.tokenEndpointAuthMethod,
    hint: 'advanced.authMethodHint',
    advanced: true,
  },
  jwks: {
    id: 'app-jwks',
    label: 'advanced.jwks',
    value: (f) => f.jwks,
    hint: 'advanced.jwksHint',
    advanced: true,
  },
  jwksUri: {
    id: 'app-jwks-uri',
    label: 'advanced.jwksUri',
    value: (f) => f.jwksUri,
    type: 'url',
    hint: 'advanced.jwksUriHint',
    advanced: true,
  },
  tlsClientAuthSubjectDn: {
    id: 'app-subject-dn',
    label: 'advanced.subjectDn',
    value: (f) => f.tlsClientAuthSubjectDn,
    hint: 'advanced.subjectDnHint',
    advanced: true,
  },
  dpopBoundAccessTokens: {
    id: 'app-dpop',
    label: 'advanced.requireDpop',
    value: checkbox((f) => f.dpopBoundAccessTokens, 'on'),
    hint: 'advanced.requireDpopHint',
    advanced: true,
  },
  tlsClientCertificateBoundAccessTokens: {
    id: 'app-cert-bound',
    label: 'advanced.certBound',
    value: checkbox((f) => f.tlsClientCertificateBoundAccessTokens, 'on'),
    hint: 'advanced.certBoundHint',
    advanced: true,
  },
  requirePushedAuthorizationRequests: {
    id: 'app-par',
    label: 'advanced.requirePar',
    value: checkbox((f) => f.requirePushedAuthorizationRequests, 'on'),
    hint: 'advanced.requireParHint',
    advanced: true,
  },
  securityProfile: {
    id: 'app-fapi2',
    label: 'advanced.fapi2',
    value: checkbox((f) => f.fapi2, 'fapi2'),
    hint: 'advanced.fapi2Hint',
    advanced: true,
  },
};
