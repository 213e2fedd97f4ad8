import { adminParameters, adminSecurity, errors, json, pathParam, ref } from './common';

const tenantId = pathParam('tenantId', 'Tenant ID');
const nameBody = {
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 200 } },
      },
    },
  },
};

export const schemas = {
  Tenant: {
    type: 'object',
    description: "A tenant (the spec's businessUnit).",
    required: ['tenantId', 'name', 'createdAt', 'updatedAt'],
    additionalProperties: false,
    properties: {
      tenantId: { type: 'string' },
      name: { type: 'string' },
      createdAt: { type: 'integer', description: 'epoch ms' },
      updatedAt: { type: 'integer', description: 'epoch ms' },
    },
  },
};

export const paths = {
  '/api/v1/admin/tenants': {
    post: {
      summary: 'Create a tenant',
      description: 'Publishes administrator_create_tenant (data: tenantName).',
      security: adminSecurity,
      parameters: adminParameters,
      requestBody: nameBody,
      responses: { '201': json('Created', ref('Tenant')), ...errors(400, 401) },
    },
    get: {
      summary: 'List tenants, oldest first',
      security: adminSecurity,
      parameters: adminParameters,
      responses: {
        '200': json('Tenants', {
          type: 'object',
          required: ['tenants'],
          additionalProperties: false,
          properties: { tenants: { type: 'array', items: ref('Tenant') } },
        }),
        ...errors(401),
      },
    },
  },
  '/api/v1/admin/tenants/{tenantId}': {
    parameters: [tenantId],
    get: {
      summary: 'Get a tenant',
      security: adminSecurity,
      parameters: adminParameters,
      responses: { '200': json('The tenant', ref('Tenant')), ...errors(401, 404) },
    },
    patch: {
      summary: 'Rename a tenant',
      description: 'A real change publishes administrator_update_general_settings (data: diff).',
      security: adminSecurity,
      parameters: adminParameters,
      requestBody: nameBody,
      responses: { '200': json('The tenant', ref('Tenant')), ...errors(400, 401, 404) },
    },
    delete: {
      summary: 'Remove an empty tenant',
      description:
        'Refused with 409 tenant_not_empty while it has applications or active API credentials. Publishes administrator_remove_tenant (data: tenantName).',
      security: adminSecurity,
      parameters: adminParameters,
      responses: { '200': json('Removed', ref('Success')), ...errors(401, 404, 409) },
    },
  },
};
