import {
  adminOperation,
  closedObject,
  errors,
  json,
  jsonBody,
  pathParam,
  ref,
  tenantIdParam,
} from './common';

export const schemas = {
  DeviceAccessChange: closedObject(['status', 'userId', 'deviceId', 'allowAccess', 'changedAt'], {
    status: { const: 'success' },
    userId: { type: 'string' },
    deviceId: { type: 'string' },
    allowAccess: { type: 'boolean', description: 'false: the device is blocked' },
    changedAt: { type: 'integer', description: 'epoch ms' },
  }),
  BlockedCountries: closedObject(['tenantId', 'blockedCountries'], {
    tenantId: { type: 'string' },
    blockedCountries: {
      type: 'array',
      items: { type: 'string', pattern: '^[A-Z]{2}$' },
      description: 'ISO 3166-1 alpha-2 codes, sorted; empty: no rule',
    },
  }),
  RotatedKeys: closedObject(['signingKid', 'encryptionKid', 'activatesAt'], {
    signingKid: { type: 'string' },
    encryptionKid: { type: 'string' },
    activatesAt: { type: 'integer', description: 'epoch ms at which the new keys become active' },
  }),
};

const theRule = (description = 'The rule') => json(description, ref('BlockedCountries'));

export const paths = {
  '/api/v1/admin/tenants/{tenantId}/users/{userId}/devices/{deviceId}/block': {
    parameters: [tenantIdParam, pathParam('userId', 'User ID (sub)'), pathParam('deviceId', 'Device ID')],
    post: adminOperation({
      summary: "Block (or unblock) a user's device",
      description: 'Publishes administrator_block_user_device (data: deviceId, userId, allowAccess).',
      requestBody: jsonBody(
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            allowAccess: { type: 'boolean', default: false, description: 'true lifts the block' },
          },
        },
        false,
      ),
      responses: { '200': json('Recorded', ref('DeviceAccessChange')), ...errors(400, 401, 404, 503) },
    }),
  },
  '/api/v1/admin/tenants/{tenantId}/risk-rules/blocked-countries': {
    parameters: [tenantIdParam],
    get: adminOperation({
      summary: "The tenant's location rule",
      responses: { '200': theRule(), ...errors(401, 404, 503) },
    }),
    put: adminOperation({
      summary: 'Block sign-ins from these countries',
      description:
        'Sign-ins from a listed country (by the caller IP) end with the redirect error risk_access_restriction and a restricted_location activity (status blocked). Publishes administrator_create_risk_rule (data: ruleType blocked_countries) the first time, administrator_update_risk_rule (data: diff) on a change, nothing when the list is the same.',
      requestBody: jsonBody(
        closedObject(['countries'], {
          countries: {
            type: 'array',
            minItems: 1,
            maxItems: 250,
            items: { type: 'string', pattern: '^[A-Za-z]{2}$' },
            description: 'assigned ISO 3166-1 alpha-2 codes (any case)',
          },
        }),
      ),
      responses: { '200': theRule(), ...errors(400, 401, 404, 503) },
    }),
    delete: adminOperation({
      summary: 'Remove the location rule',
      description:
        'Publishes administrator_remove_risk_rule (data: ruleType blocked_countries) when there was a rule.',
      responses: { '200': theRule('The rule, now empty'), ...errors(401, 404, 503) },
    }),
  },
  '/api/v1/admin/keys/rotate': {
    post: adminOperation({
      summary: 'Rotate the signing and encryption keys',
      description: "Publishes administrator_rotate_keys with tenantId '*' (platform-wide).",
      responses: { '200': json('The new keys', ref('RotatedKeys')), ...errors(401, 503) },
    }),
  },
};
