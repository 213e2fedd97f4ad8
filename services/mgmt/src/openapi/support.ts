import {
  adminOperation,
  closedObject,
  epochMs,
  errors,
  json,
  object,
  param,
  pathParam,
  ref,
  tenantIdParam,
} from './common';

const T = '/api/v1/admin/tenants/{tenantId}';
const str = { type: 'string' };
const optionalQuery = (name: string, description: string, schema: Record<string, unknown> = str) =>
  param('query', name, description, schema, false);

const filters = [
  optionalQuery('app', 'Application ID'),
  optionalQuery('user', 'User ID (sub)'),
  optionalQuery('status', 'Flow status', {
    enum: ['success', 'failure', 'suspected', 'blocked', 'enrollment', 'incomplete'],
  }),
  optionalQuery('flowType', 'Flow type', { enum: ['authentication', 'transaction', 'ciba', 'enrollment'] }),
  optionalQuery('method', 'Authentication method', {
    enum: ['fido2', 'email_otp', 'email_magic_link', 'device_only'],
  }),
  optionalQuery('from', 'Inclusive: YYYY-MM-DD (UTC), an ISO time or epoch ms'),
  optionalQuery('to', 'Exclusive: an ISO time or epoch ms; a date YYYY-MM-DD includes that whole day'),
  optionalQuery('email', 'The sign-ins this address was typed in (any case), with or without an account'),
];
const unavailable = ' Answers 503 support_unavailable when this server has no support look-up configured.';

export const schemas = {
  SupportUser: object(['userId', 'email', 'matchedBy'], {
    userId: str,
    email: str,
    matchedBy: { enum: ['email', 'user_id', 'alias'] },
  }),
  SupportUserDetail: object(['userId', 'email', 'devices', 'memberships'], {
    userId: str,
    email: str,
    createdAt: { ...epochMs, description: 'epoch ms; absent when not known' },
    disabledAt: { ...epochMs, description: 'epoch ms when disabled in this tenant; absent while enabled' },
    phoneMasked: {
      type: 'string',
      description: 'The phone number with all but its last two digits hidden; absent: none',
    },
    passkeys: { type: 'array', items: ref('PersonPasskey'), description: 'Absent: none known' },
    devices: {
      type: 'array',
      items: object(['deviceId', 'name', 'os', 'browser', 'firstSeen', 'lastSeen', 'passkeys', 'blocked'], {
        deviceId: str,
        name: str,
        os: str,
        browser: str,
        firstSeen: epochMs,
        lastSeen: epochMs,
        passkeys: { type: 'integer' },
        blocked: { type: 'boolean' },
      }),
    },
    memberships: {
      type: 'array',
      items: object(['appId', 'appName', 'confirmed'], {
        appId: str,
        appName: str,
        alias: str,
        firstLogin: epochMs,
        lastLogin: epochMs,
        confirmed: { type: 'boolean' },
      }),
    },
  }),
  PersonPasskey: closedObject(['credentialId', 'createdAt', 'deviceId', 'deviceName', 'suspected'], {
    credentialId: { type: 'string', description: 'What DELETE …/passkeys/{credentialId} takes' },
    model: { type: 'string', description: 'The authenticator model from the AAGUID list; absent: unknown' },
    createdAt: epochMs,
    lastUsedAt: { ...epochMs, description: 'epoch ms; absent: never used to sign in' },
    deviceId: { type: 'string', description: 'The device it was made on' },
    deviceName: str,
    suspected: { type: 'boolean', description: 'Flagged as a possible clone' },
  }),
  FlowSummary: object(
    ['id', 'timestamp', 'time', 'applicationId', 'status', 'device', 'ip', 'location', 'outcome'],
    {
      id: str,
      timestamp: epochMs,
      time: { type: 'string', description: 'ISO 8601, UTC' },
      applicationId: str,
      userId: str,
      email: { type: 'string', description: 'Who the flow was about, when known (administrators only)' },
      attemptedEmail: {
        type: 'string',
        description:
          'The address typed in the flow, lower-case, with or without an account (administrators only)',
      },
      traceId: {
        type: 'string',
        description:
          "The W3C trace id of the flow's latest traced step, when tracing is on: give it to an SRE to find the trace",
      },
      flowType: str,
      authMethodType: str,
      status: str,
      errorCode: str,
      failureReason: str,
      device: str,
      ip: str,
      location: str,
      outcome: { type: 'string', description: 'The outcome in plain words (English)' },
    },
  ),
};

export const paths = {
  [`${T}/users`]: {
    parameters: [tenantIdParam],
    get: adminOperation({
      summary: 'Find a person',
      description: `By exact (case-insensitive) email, user ID, or alias (of \`app\` when given). Role: any.${unavailable}`,
      pathParams: [
        param('query', 'query', 'Email, user ID or alias (at most 320 characters)'),
        optionalQuery('app', 'Read an alias as this application’s'),
      ],
      responses: {
        '200': json(
          'The people found (none: empty)',
          object(['users'], { users: { type: 'array', items: ref('SupportUser') } }),
        ),
        ...errors(400, 401, 404, 503),
      },
    }),
  },
  [`${T}/users/{userId}`]: {
    parameters: [tenantIdParam, pathParam('userId', 'User ID (sub)')],
    get: adminOperation({
      summary: "A person's devices, passkeys, phone number and application memberships",
      description: `404 user_not_found for anyone not of this tenant.${unavailable}`,
      responses: { '200': json('The person', ref('SupportUserDetail')), ...errors(401, 404, 503) },
    }),
  },
  [`${T}/flows`]: {
    parameters: [tenantIdParam],
    get: adminOperation({
      summary: "The tenant's sign-in flows, newest first",
      description: `Each with its outcome in words. Paged by an opaque cursor (a position, stable while new records arrive): pass nextCursor back as cursor.${unavailable}`,
      pathParams: [
        ...filters,
        optionalQuery('limit', '1 to 200, default 50', { type: 'integer', minimum: 1, maximum: 200 }),
        optionalQuery('cursor', 'nextCursor of the previous page'),
      ],
      responses: {
        '200': json(
          'One page',
          object(['flows'], { flows: { type: 'array', items: ref('FlowSummary') }, nextCursor: str }),
        ),
        ...errors(400, 401, 404, 503),
      },
    }),
  },
  [`${T}/flows/export`]: {
    parameters: [tenantIdParam],
    get: adminOperation({
      summary: 'Export the filtered flows as CSV or JSON (streamed)',
      description: `Every record matching the filters, newest first, as a download. CSV cells a spreadsheet would read as a formula are prefixed with '. Publishes administrator_export_event_data (data: multipeEvents true). Role: any.${unavailable}`,
      pathParams: [param('query', 'format', 'csv or json', { enum: ['csv', 'json'] }), ...filters],
      responses: {
        '200': {
          description: 'The records',
          content: { 'text/csv': { schema: str }, 'application/json': { schema: { type: 'array' } } },
        },
        ...errors(400, 401, 404, 503),
      },
    }),
  },
  [`${T}/flows/{flowId}`]: {
    parameters: [tenantIdParam, pathParam('flowId', 'Flow ID')],
    get: adminOperation({
      summary: 'One flow: its outcome, its events as a timeline in words, and the record',
      description: `404 flow_not_found for a flow not of this tenant.${unavailable}`,
      responses: {
        '200': json(
          'The flow',
          object(['flow', 'timeline', 'authenticatingDevice', 'record'], {
            flow: ref('FlowSummary'),
            timeline: {
              type: 'array',
              items: object(['timestamp', 'time', 'action', 'sentence'], {
                id: str,
                timestamp: epochMs,
                time: str,
                action: str,
                clientIp: str,
                sentence: str,
              }),
            },
            authenticatingDevice: str,
            record: {
              type: 'object',
              description: 'The activity log record (spec 2.4), plus email when known',
            },
          }),
        ),
        ...errors(401, 404, 503),
      },
    }),
  },
  [`${T}/flows/{flowId}/export`]: {
    parameters: [tenantIdParam, pathParam('flowId', 'Flow ID')],
    get: adminOperation({
      summary: "Export one flow's raw JSON",
      description: `A download of the record. Publishes administrator_export_event_data (data: multipeEvents false, flowId).${unavailable}`,
      responses: { '200': json('The record', { type: 'object' }), ...errors(401, 404, 503) },
    }),
  },
};
