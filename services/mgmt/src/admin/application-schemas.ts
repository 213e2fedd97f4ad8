import { z } from 'zod';
import { cibaModes, knownScopes } from '../directory/model';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'blob:', 'vbscript:', 'about:']);

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** An absolute URI without a fragment (RFC 6749 §3.1.2), matched exactly; custom schemes allowed for native apps. */
export const redirectUri = z
  .string()
  .max(2000)
  .superRefine((value, ctx) => {
    const url = parseUrl(value);
    if (!url) return void ctx.addIssue({ code: 'custom', message: 'must be an absolute URI' });
    if (value.includes('#'))
      return void ctx.addIssue({ code: 'custom', message: 'must not contain a fragment' });
    if (FORBIDDEN_SCHEMES.has(url.protocol))
      ctx.addIssue({ code: 'custom', message: `scheme ${url.protocol} is not allowed` });
  });

/** https, or http on a loopback host (local development); no fragment. */
const endpointUrl = z
  .string()
  .max(2000)
  .superRefine((value, ctx) => {
    const url = parseUrl(value);
    const ok =
      url &&
      !value.includes('#') &&
      (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname)));
    if (!ok)
      ctx.addIssue({
        code: 'custom',
        message: 'must be an https URL (http only on localhost), without a fragment',
      });
  });

/** The svc_aux_link prefix: must begin with https:// and end with / (spec 4.2). */
const auxLinkPrefix = z
  .string()
  .max(2000)
  .refine((v) => v.startsWith('https://') && v.endsWith('/') && Boolean(parseUrl(v)) && !v.includes('#'), {
    message: 'must be an https:// URL ending with /',
  });

const name = z.string().trim().min(1, 'must not be empty').max(200);

const redirectUris = z
  .array(redirectUri)
  .max(50)
  .refine((uris) => new Set(uris).size === uris.length, { message: 'must not repeat a URI' });

const allowedScopes = z
  .array(z.enum(knownScopes))
  .min(1)
  .refine((s) => s.includes('openid'), { message: 'must include openid' })
  .transform((s) => [...new Set(s)]);

export const cibaSettings = z
  .object({
    mode: z.enum(cibaModes).default('poll'),
    notificationEndpoint: endpointUrl.optional(),
    strictErrors: z.boolean().default(false),
  })
  .strict()
  .superRefine((ciba, ctx) => {
    if (ciba.mode === 'ping' && !ciba.notificationEndpoint) {
      ctx.addIssue({ code: 'custom', path: ['notificationEndpoint'], message: 'is required in ping mode' });
    }
  });

/** POST /api/v1/admin/tenants/:tenantId/applications */
export const createApplicationBody = z
  .object({
    name,
    redirectUris: redirectUris.default([]),
    /** A public client has no secret and must use PKCE. */
    public: z.boolean().default(false),
    allowedScopes: allowedScopes.default([...knownScopes]),
    ciba: cibaSettings.default({}),
    auxLinkPrefix: auxLinkPrefix.optional(),
    registrationRedirectUri: redirectUri.optional(),
  })
  .strict();
export type CreateApplicationBody = z.infer<typeof createApplicationBody>;

/** PATCH: only the fields present change; null clears an optional one; `ciba` replaces the whole object. */
export const updateApplicationBody = z
  .object({
    name: name.optional(),
    redirectUris: redirectUris.optional(),
    allowedScopes: allowedScopes.optional(),
    ciba: cibaSettings.optional(),
    auxLinkPrefix: auxLinkPrefix.nullable().optional(),
    registrationRedirectUri: redirectUri.nullable().optional(),
  })
  .strict();
export type UpdateApplicationBody = z.infer<typeof updateApplicationBody>;
