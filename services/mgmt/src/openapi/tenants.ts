import {
  adminOperation,
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

const name = displayName(200);
const nameBody = jsonBody(closedObject(['name'], { name }));
const createBody = jsonBody(
  closedObject(['name'], {
    name,
    ownerEmail: {
      type: 'string',
      description:
        'Bootstrap key only: the email invited (by mail) as the first Owner. An administrator who creates a tenant becomes its Owner.',
    },
    ownerLocale: {
      type: 'string',
      enum: ['en', 'de', 'fr'],
      description: "The language of the first Owner's invitation mail; default en.",
    },
  }),
);

const tenantProperties = {
  tenantId: { type: 'string' },
  name: { type: 'string' },
  createdAt: epochMs,
  updatedAt: epochMs,
};

export const schemas = {
  Tenant: closedObject(
    ['tenantId', 'name', 'createdAt', 'updatedAt'],
    tenantProperties,
    "A tenant (the spec's businessUnit).",
  ),
  CreatedTenant: closedObject(
    ['tenantId', 'name', 'createdAt', 'updatedAt'],
    { ...tenantProperties, invitation: ref('Invitation') },
    'The new tenant; with ownerEmail, the invitation of its first Owner.',
  ),
};

const theTenant = { '200': json('The tenant', ref('Tenant')) };

export const paths = {
  '/api/v1/admin/tenants': {
    post: adminOperation({
      summary: 'Create a tenant',
      description:
        'Publishes administrator_create_tenant (data: tenantName), and administrator_tenant_invitation (data: email) with ownerEmail. Owners only; the bootstrap key only on an empty install (ownerEmail then required: the key creates a tenant with its first Owner invitation and nothing else) or with break-glass.',
      requestBody: createBody,
      responses: { '201': json('Created', ref('CreatedTenant')), ...errors(400, 401) },
    }),
    get: adminOperation({
      summary: 'List tenants, oldest first',
      description:
        'A personal API token lists the tenants its administrator belongs to; the bootstrap key (break-glass only) every tenant.',
      responses: { ...listed('Tenants', 'tenants', 'Tenant'), ...errors(401) },
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
