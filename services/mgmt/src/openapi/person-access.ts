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

/** A person's sessions, Sign out everywhere, Disable / Enable account (issue 38): routes/admin/person-access-routes.ts. */
const U = '/api/v1/admin/tenants/{tenantId}/users/{userId}';
const str = { type: 'string' };
const parameters = [tenantIdParam, pathParam('userId', 'User ID (sub)')];
const emptyBody = jsonBody({ type: 'object', additionalProperties: false, properties: {} }, false);

export const schemas = {
  UserSession: closedObject(
    ['sid', 'deviceName', 'os', 'browser', 'place', 'startedAt', 'lastSeenAt', 'apps'],
    {
      sid: { type: 'string', description: 'The session id as ID and logout tokens carry it' },
      deviceName: str,
      os: str,
      browser: { type: 'string', description: 'Browser and major version ("Chrome 156")' },
      place: {
        type: 'string',
        description: 'Approximate place from the IP address ("Berlin, DE"); empty: unknown',
      },
      startedAt: epochMs,
      lastSeenAt: epochMs,
      apps: {
        type: 'array',
        items: closedObject(['clientId', 'name'], { clientId: str, name: str }),
      },
    },
  ),
  SignedOutEverywhere: closedObject(['status', 'userId', 'endedSessions', 'notifiedApps'], {
    status: { const: 'success' },
    userId: str,
    endedSessions: { type: 'integer' },
    notifiedApps: { type: 'array', items: str, description: 'client_ids sent a back-channel logout token' },
  }),
  AccountStatusChange: closedObject(['status', 'userId', 'disabled', 'changedAt'], {
    status: { const: 'success' },
    userId: str,
    disabled: { type: 'boolean' },
    changedAt: epochMs,
    endedSessions: { type: 'integer', description: 'Disable only: the sessions it ended' },
  }),
};

export const paths = {
  [`${U}/sessions`]: {
    parameters,
    get: adminOperation({
      summary: "A person's signed-in sessions",
      description:
        'Newest sign-in first: device, approximate place, started, last seen, applications. Role: any.',
      responses: {
        '200': json(
          'The sessions (none: empty)',
          closedObject(['sessions'], { sessions: { type: 'array', items: ref('UserSession') } }),
        ),
        ...errors(400, 401, 403, 404, 503),
      },
    }),
  },
  [`${U}/sign-out-everywhere`]: {
    parameters,
    post: adminOperation({
      summary: 'Sign a person out everywhere',
      description:
        "Ends every Sesame session of the person in the tenant, sends the applications' back-channel logouts, and ends their refresh and access tokens. Role: any (Support too). Publishes administrator_sign_out_user_everywhere (data: userId, endedSessions, notifiedApps).",
      requestBody: emptyBody,
      responses: {
        '200': json('Signed out', ref('SignedOutEverywhere')),
        ...errors(400, 401, 403, 404, 503),
      },
    }),
  },
  [`${U}/disable`]: {
    parameters,
    post: adminOperation({
      summary: "Disable a person's account in the tenant",
      description:
        'The person cannot sign in to any application of the tenant (access_denied) until enabled; their sessions and tokens end at once. Nothing is deleted. Role: Administrator or Owner. Publishes administrator_disable_user (data: userId, endedSessions).',
      requestBody: emptyBody,
      responses: { '200': json('Disabled', ref('AccountStatusChange')), ...errors(400, 401, 403, 404, 503) },
    }),
  },
  [`${U}/enable`]: {
    parameters,
    post: adminOperation({
      summary: "Enable a person's account again",
      description:
        'The person may sign in again. Role: Administrator or Owner. Publishes administrator_enable_user (data: userId).',
      requestBody: emptyBody,
      responses: { '200': json('Enabled', ref('AccountStatusChange')), ...errors(400, 401, 403, 404, 503) },
    }),
  },
};
