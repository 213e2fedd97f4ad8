// Over 300 lines on purpose: the OpenAPI schemas of the application resource, one property per setting; data,
// kept beside the zod schemas it documents (application-schemas.ts).
import {
  CIBA_DELIVERY_MODES,
  CLAIM_SCOPES,
  DEFAULT_REFRESH_ABSOLUTE_LIFETIME_S,
  DEFAULT_REFRESH_IDLE_LIFETIME_S,
  MAX_REFRESH_ABSOLUTE_LIFETIME_S,
  TOKEN_ENDPOINT_AUTH_METHODS,
} from '@sesame/oauth';
import {
  adminOperation,
  appIdParam,
  closedObject,
  displayName,
  epochMs,
  errors,
  json,
  jsonBody,
  ref,
  tenantIdParam,
} from './common';
import { listed } from './list-answer';

const scopes = { type: 'array', items: { enum: [...CLAIM_SCOPES] } };
const ciba = {
  type: 'object',
  additionalProperties: false,
  required: ['mode', 'strictErrors'],
  properties: {
    mode: { enum: [...CIBA_DELIVERY_MODES] },
    notificationEndpoint: {
      type: 'string',
      format: 'uri',
      description: 'Required in ping mode; https (http only on localhost).',
    },
    strictErrors: {
      type: 'boolean',
      description: 'Pending CIBA answers per CIBA Core §11 (HTTP 400) instead of HTTP 200.',
    },
    expiresIn: {
      type: 'integer',
      minimum: 60,
      maximum: 86400,
      description: 'Seconds a CIBA request and its link live; absent: the platform default (1800).',
    },
  },
};
const cibaInput = { ...ciba, required: [] };
const refreshTokens = {
  type: 'object',
  additionalProperties: false,
  required: ['enabled', 'absoluteLifetimeS', 'idleLifetimeS'],
  description:
    'Refresh tokens for code grants with offline_access (rotated on every use; a reused one revokes its family). Absent: off.',
  properties: {
    enabled: { type: 'boolean', description: 'false: offline_access is never granted' },
    absoluteLifetimeS: {
      type: 'integer',
      minimum: 60,
      maximum: MAX_REFRESH_ABSOLUTE_LIFETIME_S,
      default: DEFAULT_REFRESH_ABSOLUTE_LIFETIME_S,
      description: 'Seconds a refresh token family lives from the sign-in, however often it is used.',
    },
    idleLifetimeS: {
      type: 'integer',
      minimum: 60,
      maximum: MAX_REFRESH_ABSOLUTE_LIFETIME_S,
      description: `Seconds a family lives unused (each use starts it again); at most absoluteLifetimeS. Default ${DEFAULT_REFRESH_IDLE_LIFETIME_S}, or absoluteLifetimeS when shorter.`,
    },
  },
};
const refreshTokensInput = { ...refreshTokens, required: ['enabled'] };
const settings = {
  name: displayName(200),
  redirectUris: {
    type: 'array',
    items: { type: 'string', description: 'Absolute URI without fragment, matched exactly' },
    maxItems: 50,
  },
  allowedScopes: {
    ...scopes,
    description:
      'The claim scopes the app may request; must include openid; default: all four. profile and offline_access are not listed here (offline_access follows refreshTokens).',
  },
  auxLinkPrefix: { type: 'string', description: 'svc_aux_link prefix: https://..., ending with /' },
  registrationRedirectUri: { type: 'string', description: 'Absolute URI where registration links land' },
  registrationLinkExpiresIn: {
    type: 'integer',
    minimum: 60,
    maximum: 604800,
    description: 'Seconds a registration link (send-activation) lives; default 1800 (spec 8).',
  },
  postLogoutRedirectUris: {
    type: 'array',
    items: {
      type: 'string',
      description: 'Absolute URI without fragment (redirect URI rules), matched exactly',
    },
    maxItems: 50,
    description:
      'Where RP-Initiated Logout ({auth_url}/logout) may send the browser afterwards (post_logout_redirect_uri); [] removes every one.',
  },
  backchannelLogoutUri: {
    type: 'string',
    description:
      'Back-Channel Logout 1.0: where a logout_token is POSTed when a session of this app ends. https (http only on localhost), a public address, no fragment; a loopback host only where SESAME_ALLOW_LOOPBACK_NOTIFICATIONS allows it (development).',
  },
  backchannelLogoutSessionRequired: {
    type: 'boolean',
    description: 'The app needs sid in logout tokens (every logout token carries it).',
  },
  tokenEndpointAuthMethod: {
    type: 'string',
    // @sesame/oauth's methods but `none`, as directory/model.ts's clientAuthMethods (a layer above this one).
    enum: TOKEN_ENDPOINT_AUTH_METHODS.filter((method) => method !== 'none'),
    description:
      'private_key_jwt (RFC 7523): the app signs a client_assertion with one of its keys (jwks or jwksUri, exactly one) and its secret no longer authenticates it. tls_client_auth (RFC 8705): its TLS client certificate from a trusted CA with the subject DN tlsClientAuthSubjectDn; self_signed_tls_client_auth: a certificate whose public key is in jwks or jwksUri. Absent or null: the secret.',
  },
  jwks: {
    type: 'object',
    description:
      'private_key_jwt: the app\'s public JWK Set by value ({"keys": [...]}, 1 to 20 RSA or EC public keys).',
  },
  jwksUri: {
    type: 'string',
    description:
      'private_key_jwt: where the app publishes its JWK Set; https on a public address, fetched with a timeout and a size cap, cached, refetched once on an unknown kid.',
  },
  requirePushedAuthorizationRequests: {
    type: 'boolean',
    description:
      'PAR (RFC 9126): /authorize refuses requests of this app that were not pushed to /par first.',
  },
  requestObjectSigningAlg: {
    type: 'string',
    enum: ['RS256', 'PS256', 'ES256'],
    description:
      "JAR (RFC 9101): /authorize and /par take only request objects signed with this alg by one of the app's keys (jwks or jwksUri, required); unsigned ones and other algs are invalid_request_object. Absent or null: signed, unsigned and encrypted request objects are all taken.",
  },
  dpopBoundAccessTokens: {
    type: 'boolean',
    description:
      'DPoP (RFC 9449): /token refuses requests of this app without a DPoP proof, so all its access tokens are DPoP-bound (dpop_bound_access_tokens).',
  },
  tlsClientAuthSubjectDn: {
    type: 'string',
    maxLength: 1024,
    description:
      'tls_client_auth only: the subject DN (RFC 4514, e.g. "CN=rp,O=Bank,C=DE"; attribute order and case do not matter) the client certificate must carry. null removes it.',
  },
  tlsClientCertificateBoundAccessTokens: {
    type: 'boolean',
    description:
      'RFC 8705 3: access tokens issued to this app carry cnf.x5t#S256 of the client certificate presented at /token, and are accepted at /userinfo and /introspect only with the same certificate.',
  },
  idTokenSignedResponseAlg: {
    type: 'string',
    enum: ['RS256', 'PS256', 'ES256'],
    description:
      "The alg of this app's ID tokens and back-channel logout tokens (OIDC Registration id_token_signed_response_alg), signed by the environment's key of that alg published in /jwks. Absent or null: RS256.",
  },
  backchannelAuthenticationRequestSigningAlg: {
    type: 'string',
    enum: ['RS256', 'PS256', 'ES256'],
    description:
      "FAPI-CIBA (CIBA Core 7.1.1): /authorize_ciba takes only signed authentication requests (the request parameter) signed with this alg by one of the app's keys (jwks or jwksUri, required); a plain request or another alg is invalid_request. Absent or null: signed and plain requests are both taken.",
  },
  securityProfile: {
    type: 'string',
    enum: ['fapi2'],
    description:
      'fapi2: the FAPI 2.0 Security Profile, enforced as a whole: a confidential app authenticating with private_key_jwt, tls_client_auth or self_signed_tls_client_auth; https redirect URIs (http only on a loopback address); PAR required; PKCE S256 required; sender-constrained access tokens (a DPoP proof at /token unless tlsClientCertificateBoundAccessTokens); codes good 60 s at most; refresh tokens not rotated. Absent or null: no profile.',
  },
};

const app = closedObject(
  [
    'appId',
    'tenantId',
    'name',
    'clientId',
    'public',
    'redirectUris',
    'allowedScopes',
    'ciba',
    'createdAt',
    'updatedAt',
  ],
  {
    appId: { type: 'string' },
    tenantId: { type: 'string' },
    name: { type: 'string' },
    clientId: { type: 'string' },
    public: { type: 'boolean', description: 'Public client: no secret, PKCE only' },
    redirectUris: { type: 'array', items: { type: 'string' } },
    allowedScopes: { type: 'array', items: { type: 'string' } },
    ciba,
    auxLinkPrefix: { type: 'string' },
    registrationRedirectUri: { type: 'string' },
    registrationLinkExpiresIn: { type: 'integer' },
    refreshTokens,
    postLogoutRedirectUris: { type: 'array', items: { type: 'string' } },
    backchannelLogoutUri: { type: 'string' },
    backchannelLogoutSessionRequired: { type: 'boolean' },
    tokenEndpointAuthMethod: { type: 'string' },
    jwks: { type: 'object' },
    jwksUri: { type: 'string' },
    requirePushedAuthorizationRequests: { type: 'boolean' },
    requestObjectSigningAlg: { type: 'string' },
    dpopBoundAccessTokens: { type: 'boolean' },
    tlsClientAuthSubjectDn: { type: 'string' },
    tlsClientCertificateBoundAccessTokens: { type: 'boolean' },
    idTokenSignedResponseAlg: { type: 'string' },
    backchannelAuthenticationRequestSigningAlg: { type: 'string' },
    securityProfile: { type: 'string' },
    createdAt: epochMs,
    updatedAt: epochMs,
  },
);

export const schemas = {
  Application: app,
  CreatedApplication: {
    ...app,
    description: 'The new application; clientSecret (confidential clients only) is shown this once.',
    properties: { ...app.properties, clientSecret: { type: 'string' } },
  },
  UpdatedApplication: {
    ...app,
    description:
      'The updated application; clientSecret only when this update made a public client confidential (public: false), shown this once.',
    properties: { ...app.properties, clientSecret: { type: 'string' } },
  },
};

const theApplication = { '200': json('The application', ref('Application')) };

export const paths = {
  '/api/v1/admin/tenants/{tenantId}/applications': {
    parameters: [tenantIdParam],
    post: adminOperation({
      summary: 'Create an application and its OIDC client',
      description: 'Publishes administrator_create_application (data: appId, appName).',
      requestBody: jsonBody({
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: {
          ...settings,
          public: { type: 'boolean', default: false },
          ciba: cibaInput,
          refreshTokens: refreshTokensInput,
        },
      }),
      responses: { '201': json('Created', ref('CreatedApplication')), ...errors(400, 401, 404) },
    }),
    get: adminOperation({
      summary: "List a tenant's applications, oldest first",
      responses: { ...listed('Applications', 'applications', 'Application'), ...errors(401, 404) },
    }),
  },
  '/api/v1/admin/tenants/{tenantId}/applications/{appId}': {
    parameters: [tenantIdParam, appIdParam],
    get: adminOperation({
      summary: 'Get an application',
      responses: { ...theApplication, ...errors(401, 404) },
    }),
    patch: adminOperation({
      summary: 'Update application settings',
      description:
        'Fields present change; null clears auxLinkPrefix or registrationRedirectUri, or turns refreshTokens off; ciba and refreshTokens replace the whole object. public switches the client type: false makes a public client confidential with a new secret (clientSecret in the answer, shown this once); true makes a confidential client public and removes its secret (hash and sealed copy), so the old secret stops at once. A real change publishes administrator_update_application (data: diff, a JSON string of {field: {from, to}}; a switch adds public and clientSecret {from, to: generated|removed}, never the secret).',
      requestBody: jsonBody({
        type: 'object',
        additionalProperties: false,
        properties: {
          ...settings,
          public: {
            type: 'boolean',
            description:
              'Switches the client type: false makes a public client confidential (a new secret, shown once); true makes a confidential client public (its secret is removed)',
          },
          ciba: cibaInput,
          auxLinkPrefix: { type: ['string', 'null'] },
          registrationRedirectUri: { type: ['string', 'null'] },
          registrationLinkExpiresIn: { type: ['integer', 'null'], minimum: 60, maximum: 604800 },
          refreshTokens: { ...refreshTokensInput, type: ['object', 'null'] },
          backchannelLogoutUri: { type: ['string', 'null'] },
        },
      }),
      responses: {
        '200': json(
          'The application (+ clientSecret when it became confidential)',
          ref('UpdatedApplication'),
        ),
        ...errors(400, 401, 404),
      },
    }),
    delete: adminOperation({
      summary: 'Remove an application (its client stops working)',
      description: 'Publishes administrator_remove_application (data: appId, appName).',
      responses: { '200': json('Removed', ref('Success')), ...errors(401, 404) },
    }),
  },
};
