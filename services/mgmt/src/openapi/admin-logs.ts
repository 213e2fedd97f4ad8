// OpenAPI 3.1 fragment for GET /api/vbeta/mgmt/admin-logs (spec 4.7, 2.5, 8). Merged into /openapi.json.
// Uses #/components/schemas/MgmtErrorBody from the activity-logs fragment and the `bearerAuth` scheme.

import { json, logsErrors, object, ref } from './common';

const epochMs = (description: string) => ({ type: 'integer', minimum: 0, description });

export const schemas = {
  AdminEvent: object(
    ['id', 'activityType', 'adminEmail', 'clientIp', 'sessionId', 'tenantId', 'timestamp', 'data'],
    {
      id: { type: 'string' },
      activityType: { type: 'string', examples: ['administrator_create_application'] },
      adminEmail: { type: 'string' },
      clientIp: { type: 'string' },
      sessionId: { type: 'string' },
      tenantId: { type: 'string' },
      timestamp: { type: 'integer', description: 'Epoch ms (a number).' },
      data: { type: 'object', description: 'Members depend on activityType (spec 2.5).' },
    },
  ),
  AdminLogsResponse: object(['status', 'data'], {
    status: { const: 'success' },
    data: object(['count', 'total', 'events'], {
      count: { type: 'integer', description: 'Events returned.' },
      total: { type: 'integer', description: 'Events in the time window, including those not returned.' },
      events: { type: 'array', items: ref('AdminEvent') },
    }),
  }),
};

export const paths = {
  '/api/vbeta/mgmt/admin-logs': {
    get: {
      operationId: 'listAdminLogs',
      summary: 'List admin events (beta), newest first',
      tags: ['management'],
      security: [{ bearerAuth: [] }],
      parameters: [
        { name: 'fromTime', in: 'query', required: true, schema: epochMs('Inclusive, epoch ms.') },
        {
          name: 'toTime',
          in: 'query',
          required: true,
          schema: epochMs('Exclusive, epoch ms; greater than fromTime and at most 30 days after it.'),
        },
        { name: 'credentialsId', in: 'query', required: true, schema: { type: 'string', minLength: 1 } },
        {
          name: 'skip',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 0, maximum: 1000, default: 0 },
          description: 'Events skipped, counted from the newest.',
        },
        {
          name: 'take',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: 500, default: 300 },
        },
      ],
      responses: {
        '200': json('A page of admin events.', ref('AdminLogsResponse')),
        ...logsErrors('credentialsId is not the token’s.'),
      },
    },
  },
};
