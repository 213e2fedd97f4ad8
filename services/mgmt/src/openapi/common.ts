/** Building blocks of the OpenAPI 3.1 document (JSON Schema 2020-12 in every schema). */

export type Json = Record<string, unknown>;
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** What displayText (@sesame/branding) refuses, for every name a person reads. */
export const DISPLAY_TEXT_RULE =
  'Trimmed; refused (400 naming the field): control characters (CR, LF, TAB and every other C0/C1 control), bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), zero-width characters (U+200B–U+200F, U+2060, U+FEFF), line and paragraph separators, lone surrogates.';

/** A display name of at most `max` characters (a tenant, application or token name). */
export const displayName = (max: number) => ({
  type: 'string',
  minLength: 1,
  maxLength: max,
  description: DISPLAY_TEXT_RULE,
});

export const json = (description: string, schema: Json) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A JSON request body of this schema (required unless said otherwise). */
export const jsonBody = (schema: Json, required = true) => ({
  required,
  content: { 'application/json': { schema } },
});

/** An object schema that allows no other members (the admin API's shapes); `description` first when given. */
export const closedObject = (required: string[], properties: Json, description?: string) => ({
  type: 'object',
  ...(description === undefined ? {} : { description }),
  required,
  additionalProperties: false,
  properties,
});

/** An object schema with these required members (others allowed); `description` first when given. */
export const object = (required: string[], properties: Json, description?: string) => ({
  type: 'object',
  ...(description === undefined ? {} : { description }),
  required,
  properties,
});

/**
 * The error responses of the two log queries (spec 4.6, 4.7), in the management error body; `forbidden` says
 * when 403 is answered.
 */
export const logsErrors = (forbidden: string) => {
  const error = (description: string) => json(description, ref('MgmtErrorBody'));
  return {
    '400': error('A rule of the request is broken; error.fields names each offending field.'),
    '401': error('Missing, invalid or expired bearer token.'),
    '403': error(forbidden),
    '503': error('The log store is temporarily unreachable.'),
  };
};

/** A time member: an integer, epoch ms. */
export const epochMs = { type: 'integer', description: 'epoch ms' };

const errorDescriptions: Record<number, string> = {
  400: 'Invalid request; `error.fields` names each offending field',
  401: 'Missing or invalid credentials (`WWW-Authenticate: Bearer ...`)',
  403: 'Forbidden (never reveals whether a resource of another tenant exists)',
  404: 'Not found',
  409: 'Conflicts with the current state',
  429: 'A limit was reached (`Retry-After` says when to try again; `error.message` names the limit)',
  503: 'A peer service is temporarily unavailable',
};

/** The error responses an operation may give, all in the management error object. */
export function errors(...statuses: number[]): Record<string, Json> {
  return Object.fromEntries(
    statuses.map((s) => [String(s), json(errorDescriptions[s] ?? 'Error', ref('Error'))]),
  );
}

export const adminSecurity = [{ adminKey: [] }];
export const mgmtSecurity = [{ bearerAuth: [] }];

/** A parameter of the path or the query (`in`), a string unless `schema` says otherwise. */
export const param = (
  where: 'path' | 'query',
  name: string,
  description: string,
  schema: Json = { type: 'string' },
  required = true,
) => ({ name, in: where, required, description, schema });

export const pathParam = (name: string, description: string) => param('path', name, description);
export const tenantIdParam = pathParam('tenantId', 'Tenant ID');
export const appIdParam = pathParam('appId', 'Application ID');

/**
 * An operation of the admin API: admin-token security, its own path parameters (if any), and 403 (the
 * caller's role may not do this, or the bootstrap key is refused) besides the responses it lists.
 */
export function adminOperation(op: {
  summary: string;
  description?: string;
  pathParams?: Json[];
  requestBody?: Json;
  responses: Json;
}) {
  const { summary, description, pathParams, requestBody, responses } = op;
  return {
    summary,
    ...(description === undefined ? {} : { description }),
    security: adminSecurity,
    ...(pathParams ? { parameters: pathParams } : {}),
    ...(requestBody === undefined ? {} : { requestBody }),
    responses: { ...errors(403), ...(responses as Record<string, Json>) },
  };
}

export const schemas: Json = {
  Error: {
    type: 'object',
    description: 'Management error object (ARCHITECTURE §7).',
    required: ['status', 'error'],
    additionalProperties: false,
    properties: {
      status: { const: 'error' },
      error: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: {
          code: { type: 'string' },
          message: { type: 'string' },
          fields: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
  },
  Success: {
    type: 'object',
    required: ['status'],
    properties: { status: { const: 'success' } },
  },
};

export const components: Json = {
  securitySchemes: {
    adminKey: {
      type: 'http',
      scheme: 'bearer',
      description:
        "Admin API: `Authorization: Bearer <token>`: an administrator's personal API token (`sesame_pat_…`, made in the console by a session with a recent sign-in: a token cannot make tokens), which acts with its administrator's role in the tenant it was made in only (another tenant: 403 `token_tenant_mismatch`) and is recorded under their email with the token id as session id; or the bootstrap key SESAME_ADMIN_KEY, which sets up an empty install (it may only create a tenant with its first Owner invitation: any other call is 403) and is refused (403) once a tenant has an Owner unless SESAME_ADMIN_BREAK_GLASS is on (then it acts as an Owner of every tenant) (events it causes say `bootstrap-key`). Failed attempts are throttled per caller IP (429 with Retry-After).",
    },
    sesameAccessToken: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description:
        'Interactive init: `Sesame AccessToken <access_token>; <signature>` (ARCHITECTURE §7, docs/interactive-init.md).',
    },
    bearerAuth: {
      type: 'http',
      scheme: 'bearer',
      description:
        'Management API: access token from POST {auth_url}/token with grant_type=client_credentials, the API credentials as client_id/client_secret and scope=svc_admin_api.',
    },
  },
};
