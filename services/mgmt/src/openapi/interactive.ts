import { adminOperation, closedObject, errors, json, jsonBody, pathParam, ref } from './common';

/** Interactive init on api_url (spec 4.9; docs/interactive-init.md) and the client-secret rotation it may need. */
export const schemas = {
  InteractiveInitRequest: closedObject(['redirect_uri', 'purpose'], {
    redirect_uri: {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      description: 'One of the application’s registered redirect URIs (exact string match).',
    },
    purpose: { enum: ['device_enrollment'] },
    state: { type: 'string', maxLength: 2048, description: 'Returned in the redirect.' },
    data: { type: 'object', description: 'Reserved; accepted and ignored.' },
  }),
  InteractiveInitResponse: closedObject(['status_code', 'data'], {
    status_code: { const: '200' },
    data: closedObject(['url'], {
      url: { type: 'string', format: 'uri', description: 'Single use, valid 5 minutes by default.' },
    }),
  }),
  ClientSecret: closedObject(['clientSecret'], {
    clientSecret: { type: 'string', description: 'Shown this once.' },
  }),
};

export const INIT = '/api/v1/interactive/init';

export const paths = {
  [INIT]: {
    post: {
      summary: 'Get a single-use URL that starts an interactive flow for the signed-in user (spec 4.9)',
      description:
        'Served on api_url. `Authorization: Sesame AccessToken <access_token>; <signature>`: the access token from the user’s code exchange, the signature base64url(HMAC-SHA256(client secret, access token)) without padding (docs/interactive-init.md has a worked example; `npm run sesame -- interactive sign` computes it). Public clients and client_credentials tokens are refused. 401 codes: unauthorized (no header), invalid_request (other shape), invalid_token, invalid_client (public app, or no signing copy of the secret: rotate it), invalid_signature; each with `WWW-Authenticate: Sesame realm="sesame-interactive"`.',
      security: [{ sesameAccessToken: [] }],
      requestBody: jsonBody(ref('InteractiveInitRequest')),
      responses: { '200': json('The URL', ref('InteractiveInitResponse')), ...errors(400, 401, 503) },
    },
  },
  '/api/v1/admin/tenants/{tenantId}/applications/{appId}/client-secret': {
    post: adminOperation({
      summary: 'Rotate a confidential client’s secret',
      description:
        'A new secret, shown once; the old one stops at once. Also gives an application created before sealed copies existed the copy interactive init needs. 400 for a public client. Publishes administrator_update_application.',
      pathParams: [pathParam('tenantId', 'Tenant'), pathParam('appId', 'Application')],
      responses: { '200': json('The new secret', ref('ClientSecret')), ...errors(400, 401, 404) },
    }),
  },
};
