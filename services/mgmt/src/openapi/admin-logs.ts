// OpenAPI 3.1 fragment for GET /api/vbeta/mgmt/admin-logs (spec 4.7, 2.5, 8). Merged into /openapi.json.
// Uses #/components/schemas/MgmtErrorBody from the activity-logs fragment and the `bearerAuth` scheme.

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/MgmtErrorBody' } } },
});

const epochMs = (description: string) => ({ type: 'integer', minimum: 0, description });

export const schemas = {
  AdminEvent: {
    type: 'object',
    required: ['id', 'activityType', 'adminEmail', 'clientIp', 'sessionId', 'tenantId', 'timestamp', 'data'],
    properties: {
      id: { type: 'string' },
      activityType: { type: 'string', examples: ['administrator_create_application'] },
      adminEmail: { type: 'string' },
      clientIp: { type: 'string' },
      sessionId: { type: 'string' },
      tenantId: { type: 'string' },
      timestamp: { type: 'integer', description: 'Epoch ms (a number).' },
      data: { type: 'object', description: 'Members depend on activityType (spec 2.5).' },
    },
  },
  AdminLogsResponse: {
    type: 'object',
    required: ['status', 'data'],
    properties: {
      status: { const: 'success' },
      data: {
        type: 'object',
        required: ['count', 'total', 'events'],
        properties: {
          count: { type: 'integer', description: 'Events returned.' },
          total: { type: 'integer', description: 'Events in the time window, including those not returned.' },
          events: { type: 'array', items: { $ref: '#/components/schemas/AdminEvent' } },
        },
      },
    },
  },
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
        '200': {
          description: 'A page of admin events.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/AdminLogsResponse' } } },
        },
        '400': errorResponse('A rule of the request is broken; error.fields names each offending field.'),
        '401': errorResponse('Missing, invalid or expired bearer token.'),
        '403': errorResponse('credentialsId is not the token’s.'),
        '503': errorResponse('The log store is temporarily unreachable.'),
      },
    },
  },
};
