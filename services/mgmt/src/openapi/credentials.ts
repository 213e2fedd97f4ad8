import { adminParameters, adminSecurity, errors, json, pathParam, ref } from './common';

const credentials = {
  type: 'object',
  required: ['credentialsId', 'tenantId', 'createdAt'],
  additionalProperties: false,
  properties: {
    credentialsId: { type: 'string', description: 'client_id at /token (client_credentials)' },
    tenantId: { type: 'string' },
    createdAt: { type: 'integer', description: 'epoch ms' },
    revokedAt: { type: 'integer', description: 'epoch ms; present once revoked' },
  },
};

export const schemas = {
  ApiCredentials: credentials,
  CreatedApiCredentials: {
    ...credentials,
    description: 'The new API credentials; apiSecret (client_secret at /token) is shown this once.',
    required: [...credentials.required, 'apiSecret'],
    properties: { ...credentials.properties, apiSecret: { type: 'string' } },
  },
};

const tenantId = pathParam('tenantId', 'Tenant ID');

export const paths = {
  '/api/v1/admin/tenants/{tenantId}/credentials': {
    parameters: [tenantId],
    post: {
      summary: 'Create management API credentials',
      description: 'Publishes administrator_create_api_credential (data: clientId = credentialsId).',
      security: adminSecurity,
      parameters: adminParameters,
      requestBody: {
        required: false,
        content: { 'application/json': { schema: { type: 'object', additionalProperties: false } } },
      },
      responses: { '201': json('Created', ref('CreatedApiCredentials')), ...errors(400, 401, 404) },
    },
    get: {
      summary: "List a tenant's API credentials (revoked ones included)",
      security: adminSecurity,
      parameters: adminParameters,
      responses: {
        '200': json('API credentials', {
          type: 'object',
          required: ['credentials'],
          additionalProperties: false,
          properties: { credentials: { type: 'array', items: ref('ApiCredentials') } },
        }),
        ...errors(401, 404),
      },
    },
  },
  '/api/v1/admin/tenants/{tenantId}/credentials/{credentialsId}': {
    parameters: [tenantId, pathParam('credentialsId', 'API credentials ID')],
    delete: {
      summary: 'Revoke API credentials',
      description:
        'They stop authenticating at /token, and tokens minted with them stop working. Publishes administrator_revoke_api_credential (data: clientId = credentialsId).',
      security: adminSecurity,
      parameters: adminParameters,
      responses: { '200': json('The revoked credentials', ref('ApiCredentials')), ...errors(401, 404, 409) },
    },
  },
};
