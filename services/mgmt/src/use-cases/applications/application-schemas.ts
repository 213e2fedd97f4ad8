import { displayText } from '@sesame/branding';
import {
  CIBA_DELIVERY_MODES,
  CLAIM_SCOPES,
  DEFAULT_REFRESH_ABSOLUTE_LIFETIME_S,
  DEFAULT_REFRESH_IDLE_LIFETIME_S,
  MAX_REFRESH_ABSOLUTE_LIFETIME_S,
} from '@sesame/oauth';
import { OutboundRefused, checkOutboundUrl } from '@sesame/platform';
import { z } from 'zod';
import {
  clientAuthMethods,
  idTokenSignedResponseAlgs,
  requestObjectSigningAlgs,
  securityProfiles,
} from '../../directory/model';
import { jwkSet } from './client-keys';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

const LOOPBACK_HTTP = new Set(['localhost', '127.0.0.1', '[::1]']);
/** RFC 8252 §7.1: a private-use scheme is a reverse domain name (com.example.app), never a bare word. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;
// Whitespace, controls and characters that only make sense as patterns or ambiguity.
// biome-ignore lint/suspicious/noControlCharactersInRegex: reason: control characters are exactly what this refuses
const UNSAFE = /[\s\u0000-\u001f\u007f*\\]/;

/** Why a redirect URI is refused, or undefined when it may be registered. */
function redirectUriProblem(value: string, url: URL | undefined): string | undefined {
  if (UNSAFE.test(value)) return 'must not contain whitespace, control characters, * or \\';
  if (!url) return 'must be an absolute URI';
  if (value.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?]*@/i.test(value))
    return 'must not contain userinfo';
  if (url.protocol === 'https:') return url.hostname ? undefined : 'must name a host';
  if (url.protocol === 'http:')
    return LOOPBACK_HTTP.has(url.hostname) ? undefined : 'http is allowed only on a loopback host (RFC 8252)';
  if (!PRIVATE_USE_SCHEME.test(url.protocol))
    return 'must be https, http on a loopback host, or a private-use scheme such as com.example.app:';
  return undefined;
}

/**
 * A redirect URI as registered (RFC 6749 §3.1.2, RFC 8252, OAuth 2.0 Security BCP): https, http on a
 * loopback host, or a reverse-domain private-use scheme for native apps; no userinfo, wildcards, whitespace,
 * control characters or fragment. Stored normalized (WHATWG URL serialization: lower-case scheme and host,
 * default port dropped) and then compared exactly, character for character.
 */
export const redirectUri = z
  .string()
  .max(2000)
  .transform((value, ctx) => {
    const url = parseUrl(value);
    const problem = redirectUriProblem(value, url);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return url!.href;
  });

/**
 * https, or http on a loopback host (local development); no fragment. Then what the notifier will refuse
 * anyway (@sesame/platform's checkOutboundUrl): userinfo, cloud metadata names, and addresses in any notation
 * that are private, link-local, unique-local, multicast or unspecified. Loopback stays acceptable here (local
 * development); the notifier refuses it unless SESAME_ALLOW_LOOPBACK_NOTIFICATIONS allows it, and resolves
 * and checks every name again before each ping (DNS rebinding).
 */
const endpointUrl = z
  .string()
  .max(2000)
  .superRefine((value, ctx) => {
    const url = parseUrl(value);
    const ok =
      url &&
      !value.includes('#') &&
      (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname)));
    if (!ok) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be an https URL (http only on localhost), without a fragment',
      });
      return;
    }
    try {
      checkOutboundUrl(value, { allowHttp: true, allowLoopback: true });
    } catch (err) {
      if (!(err instanceof OutboundRefused)) throw err;
      ctx.addIssue({ code: 'custom', message: `must be reachable on the public internet: ${err.message}` });
    }
  });

/** The svc_aux_link prefix: must begin with https:// and end with / (spec 4.2). */
const auxLinkPrefix = z
  .string()
  .max(2000)
  .refine((v) => v.startsWith('https://') && v.endsWith('/') && Boolean(parseUrl(v)) && !v.includes('#'), {
    message: 'must be an https:// URL ending with /',
  });

/** Seconds a registration link lives (spec 8's preview setting): 1 minute to 7 days. */
const registrationLinkExpiresIn = z
  .number()
  .int()
  .min(60)
  .max(7 * 24 * 3600);

const name = displayText(200);

const redirectUris = z
  .array(redirectUri)
  .max(50)
  // Compared after normalization; a refused URI (already reported) does not count as a repeat.
  .refine(
    (uris) => {
      const valid = uris.filter((uri) => typeof uri === 'string');
      return new Set(valid).size === valid.length;
    },
    { message: 'must not repeat a URI' },
  );

const allowedScopes = z
  .array(z.enum(CLAIM_SCOPES))
  .min(1)
  .refine((s) => s.includes('openid'), { message: 'must include openid' })
  .transform((s) => [...new Set(s)]);

export const cibaSettings = z
  .object({
    mode: z.enum(CIBA_DELIVERY_MODES).default('poll'),
    notificationEndpoint: endpointUrl.optional(),
    strictErrors: z.boolean().default(false),
    /** Seconds a CIBA request and its link live (spec 8); absent: the platform default. */
    expiresIn: z
      .number()
      .int()
      .min(60)
      .max(24 * 3600)
      .optional(),
  })
  .strict()
  .superRefine((ciba, ctx) => {
    if (ciba.mode === 'ping' && !ciba.notificationEndpoint) {
      ctx.addIssue({ code: 'custom', path: ['notificationEndpoint'], message: 'is required in ping mode' });
    }
  });

const refreshLifetime = z.number().int().min(60).max(MAX_REFRESH_ABSOLUTE_LIFETIME_S);

/**
 * Refresh tokens (offline_access on code grants): off unless enabled; lifetimes in seconds, 1 minute to
 * MAX_REFRESH_ABSOLUTE_LIFETIME_S, the idle one within the absolute one (absent: the default idle lifetime,
 * or the absolute lifetime when that is shorter).
 */
export const refreshTokenSettings = z
  .object({
    enabled: z.boolean(),
    absoluteLifetimeS: refreshLifetime.default(DEFAULT_REFRESH_ABSOLUTE_LIFETIME_S),
    idleLifetimeS: refreshLifetime.optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.idleLifetimeS !== undefined && r.idleLifetimeS > r.absoluteLifetimeS) {
      ctx.addIssue({ code: 'custom', path: ['idleLifetimeS'], message: 'must not exceed absoluteLifetimeS' });
    }
  })
  .transform((r) => ({
    enabled: r.enabled,
    absoluteLifetimeS: r.absoluteLifetimeS,
    idleLifetimeS: r.idleLifetimeS ?? Math.min(DEFAULT_REFRESH_IDLE_LIFETIME_S, r.absoluteLifetimeS),
  }));

/**
 * Where RP-Initiated Logout may send the browser afterwards: registered with the rules of redirect URIs (https,
 * http on a loopback host, or a private-use scheme; normalized) and then matched exactly.
 */
const postLogoutRedirectUris = redirectUris;

/**
 * Back-Channel Logout 1.0's backchannel_logout_uri: the SSRF rules of CIBA ping endpoints (endpointUrl);
 * Back-Channel Logout §2.2 also forbids a fragment. Loopback is refused outside development when the
 * application is saved (checkLogoutEndpoint) and, as for pings, by the notifier before each delivery.
 */
const backchannelLogoutUri = endpointUrl;

/**
 * The save-time half of the loopback rule for backchannelLogoutUri: outside development an endpoint on a
 * loopback host is refused with the field named (the zod schema cannot know the environment).
 */
export function loopbackEndpointProblem(
  uri: string | null | undefined,
  allowLoopback: boolean,
): Record<string, string> | undefined {
  if (!uri || allowLoopback) return undefined;
  try {
    checkOutboundUrl(uri, { allowHttp: true, allowLoopback: false });
    return undefined;
  } catch (err) {
    if (!(err instanceof OutboundRefused)) throw err;
    return { backchannelLogoutUri: `must be reachable on the public internet: ${err.message}` };
  }
}

/** POST /api/v1/admin/tenants/:tenantId/applications */
export const createApplicationBody = z
  .object({
    name,
    redirectUris: redirectUris.default([]),
    /** A public client has no secret and must use PKCE. */
    public: z.boolean().default(false),
    allowedScopes: allowedScopes.default([...CLAIM_SCOPES]),
    ciba: cibaSettings.default({}),
    auxLinkPrefix: auxLinkPrefix.optional(),
    registrationRedirectUri: redirectUri.optional(),
    registrationLinkExpiresIn: registrationLinkExpiresIn.optional(),
    refreshTokens: refreshTokenSettings.optional(),
    postLogoutRedirectUris: postLogoutRedirectUris.default([]),
    backchannelLogoutUri: backchannelLogoutUri.optional(),
    backchannelLogoutSessionRequired: z.boolean().optional(),
    /** private_key_jwt needs jwks or jwksUri (client-keys.ts checks the fields together). */
    tokenEndpointAuthMethod: z.enum(clientAuthMethods).optional(),
    jwks: jwkSet.optional(),
    /** The SSRF rules of the other endpoints the servers call. */
    jwksUri: endpointUrl.optional(),
    requirePushedAuthorizationRequests: z.boolean().optional(),
    /** JAR: needs jwks or jwksUri (client-keys.ts). */
    requestObjectSigningAlg: z.enum(requestObjectSigningAlgs).optional(),
    /** DPoP (RFC 9449): /token requires a DPoP proof from this app. */
    dpopBoundAccessTokens: z.boolean().optional(),
    /** tls_client_auth: an RFC 4514 subject DN (client-keys.ts checks it parses and goes with the method). */
    tlsClientAuthSubjectDn: z.string().trim().min(1).max(1024).optional(),
    tlsClientCertificateBoundAccessTokens: z.boolean().optional(),
    idTokenSignedResponseAlg: z.enum(idTokenSignedResponseAlgs).optional(),
    /** FAPI-CIBA: needs jwks or jwksUri (client-keys.ts). */
    backchannelAuthenticationRequestSigningAlg: z.enum(requestObjectSigningAlgs).optional(),
    /** fapi2: the FAPI 2.0 Security Profile (security-profile.ts checks what it needs of the other fields). */
    securityProfile: z.enum(securityProfiles).optional(),
  })
  .strict();
export type CreateApplicationBody = z.infer<typeof createApplicationBody>;

/** PATCH: only the fields present change; null clears an optional one; `ciba` replaces the whole object. */
export const updateApplicationBody = z
  .object({
    name: name.optional(),
    /**
     * Switches the client type: false makes a public client confidential with a new secret (in the answer,
     * shown once); true makes a confidential client public, removing its secret.
     */
    public: z.boolean().optional(),
    redirectUris: redirectUris.optional(),
    allowedScopes: allowedScopes.optional(),
    ciba: cibaSettings.optional(),
    auxLinkPrefix: auxLinkPrefix.nullable().optional(),
    registrationRedirectUri: redirectUri.nullable().optional(),
    registrationLinkExpiresIn: registrationLinkExpiresIn.nullable().optional(),
    /** Replaces the whole object; null turns refresh tokens off. */
    refreshTokens: refreshTokenSettings.nullable().optional(),
    /** Replaces the whole list ([] removes every one). */
    postLogoutRedirectUris: postLogoutRedirectUris.optional(),
    /** null: no back-channel logout for this app. */
    backchannelLogoutUri: backchannelLogoutUri.nullable().optional(),
    backchannelLogoutSessionRequired: z.boolean().optional(),
    /** null: back to the secret (client_secret_basic/post). */
    tokenEndpointAuthMethod: z.enum(clientAuthMethods).nullable().optional(),
    jwks: jwkSet.nullable().optional(),
    jwksUri: endpointUrl.nullable().optional(),
    requirePushedAuthorizationRequests: z.boolean().optional(),
    /** null: unsigned, encrypted and signed request objects are all taken again. */
    requestObjectSigningAlg: z.enum(requestObjectSigningAlgs).nullable().optional(),
    /** DPoP (RFC 9449): /token requires a DPoP proof from this app. */
    dpopBoundAccessTokens: z.boolean().optional(),
    tlsClientAuthSubjectDn: z.string().trim().min(1).max(1024).nullable().optional(),
    tlsClientCertificateBoundAccessTokens: z.boolean().optional(),
    /** null: back to RS256. */
    idTokenSignedResponseAlg: z.enum(idTokenSignedResponseAlgs).nullable().optional(),
    /** null: /authorize_ciba takes plain (unsigned) requests again. */
    backchannelAuthenticationRequestSigningAlg: z.enum(requestObjectSigningAlgs).nullable().optional(),
    /** null: no profile. */
    securityProfile: z.enum(securityProfiles).nullable().optional(),
  })
  .strict();
export type UpdateApplicationBody = z.infer<typeof updateApplicationBody>;
