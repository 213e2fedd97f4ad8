import {
  adminOperation,
  closedObject,
  epochMs,
  errors,
  json,
  jsonBody,
  pathParam,
  ref,
  tenantIdParam,
} from './common';
import { listed } from './list-answer';

const credentials = closedObject(['credentialsId', 'tenantId', 'createdAt'], {
  credentialsId: { type: 'string', description: 'client_id at /token (client_credentials)' },
  tenantId: { type: 'string' },
  createdAt: epochMs,
  revokedAt: { type: 'integer', description: 'epoch ms; present once revoked' },
});

export const schemas = {
  ApiCredentials: credentials,
  CreatedApiCredentials: {
    ...credentials,
    description: 'The new API credentials; apiSecret (client_secret at /token) is shown this once.',
    required: [...credentials.required, 'apiSecret'],
    properties: { ...credentials.properties, apiSecret: { type: 'string' } },
  },
};

export const paths = {
  '/api/v1/admin/tenants/{tenantId}/credentials': {
    parameters: [tenantIdParam],
    post: adminOperation({
      summary: 'Create management API credentials',
      description: 'Publishes administrator_create_api_credential (data: clientId = credentialsId).',
      requestBody: jsonBody({ type: 'object', additionalProperties: false }, false),
      responses: { '201': json('Created', ref('CreatedApiCredentials')), ...errors(400, 401, 404) },
    }),
    get: adminOperation({
      summary: "List a tenant's API credentials (revoked ones included)",
      responses: { ...listed('API credentials', 'credentials', 'ApiCredentials'), ...errors(401, 404) },
    }),
  },
  '/api/v1/admin/tenants/{tenantId}/credentials/{credentialsId}': {
    parameters: [tenantIdParam, pathParam('credentialsId', 'API credentials ID')],
    delete: adminOperation({
      summary: 'Revoke API credentials',
      description:
        'They stop authenticating at /token, and tokens minted with them stop working. Publishes administrator_revoke_api_credential (data: clientId = credentialsId).',
      responses: { '200': json('The revoked credentials', ref('ApiCredentials')), ...errors(401, 404, 409) },
    }),
  },
};
