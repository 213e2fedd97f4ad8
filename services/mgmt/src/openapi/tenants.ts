import { adminOperation, closedObject, epochMs, errors, json, jsonBody, ref, tenantIdParam } from './common';

const nameBody = jsonBody(closedObject(['name'], { name: { type: 'string', minLength: 1, maxLength: 200 } }));

export const schemas = {
  Tenant: closedObject(
    ['tenantId', 'name', 'createdAt', 'updatedAt'],
    { tenantId: { type: 'string' }, name: { type: 'string' }, createdAt: epochMs, updatedAt: epochMs },
    "A tenant (the spec's businessUnit).",
  ),
};

const theTenant = { '200': json('The tenant', ref('Tenant')) };

export const paths = {
  '/api/v1/admin/tenants': {
    post: adminOperation({
      summary: 'Create a tenant',
      description: 'Publishes administrator_create_tenant (data: tenantName).',
      requestBody: nameBody,
      responses: { '201': json('Created', ref('Tenant')), ...errors(400, 401) },
    }),
    get: adminOperation({
      summary: 'List tenants, oldest first',
      responses: {
        '200': json(
          'Tenants',
          closedObject(['tenants'], { tenants: { type: 'array', items: ref('Tenant') } }),
        ),
        ...errors(401),
      },
    }),
  },
  '/api/v1/admin/tenants/{tenantId}': {
    parameters: [tenantIdParam],
    get: adminOperation({ summary: 'Get a tenant', responses: { ...theTenant, ...errors(401, 404) } }),
    patch: adminOperation({
      summary: 'Rename a tenant',
      description: 'A real change publishes administrator_update_general_settings (data: diff).',
      requestBody: nameBody,
      responses: { ...theTenant, ...errors(400, 401, 404) },
    }),
    delete: adminOperation({
      summary: 'Remove an empty tenant',
      description:
        'Refused with 409 tenant_not_empty while it has applications or active API credentials. Publishes administrator_remove_tenant (data: tenantName).',
      responses: { '200': json('Removed', ref('Success')), ...errors(401, 404, 409) },
    }),
  },
};
