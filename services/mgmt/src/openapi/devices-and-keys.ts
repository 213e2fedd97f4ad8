import { adminParameters, adminSecurity, errors, json, pathParam } from './common';

export const schemas = {
  DeviceAccessChange: {
    type: 'object',
    required: ['status', 'userId', 'deviceId', 'allowAccess', 'changedAt'],
    additionalProperties: false,
    properties: {
      status: { const: 'success' },
      userId: { type: 'string' },
      deviceId: { type: 'string' },
      allowAccess: { type: 'boolean', description: 'false: the device is blocked' },
      changedAt: { type: 'integer', description: 'epoch ms' },
    },
  },
  BlockedCountries: {
    type: 'object',
    required: ['tenantId', 'blockedCountries'],
    additionalProperties: false,
    properties: {
      tenantId: { type: 'string' },
      blockedCountries: {
        type: 'array',
        items: { type: 'string', pattern: '^[A-Z]{2}$' },
        description: 'ISO 3166-1 alpha-2 codes, sorted; empty: no rule',
      },
    },
  },
  RotatedKeys: {
    type: 'object',
    required: ['signingKid', 'encryptionKid', 'activatesAt'],
    additionalProperties: false,
    properties: {
      signingKid: { type: 'string' },
      encryptionKid: { type: 'string' },
      activatesAt: { type: 'integer', description: 'epoch ms at which the new keys become active' },
    },
  },
};

export const paths = {
  '/api/v1/admin/tenants/{tenantId}/users/{userId}/devices/{deviceId}/block': {
    parameters: [
      pathParam('tenantId', 'Tenant ID'),
      pathParam('userId', 'User ID (sub)'),
      pathParam('deviceId', 'Device ID'),
    ],
    post: {
      summary: "Block (or unblock) a user's device",
      description: 'Publishes administrator_block_user_device (data: deviceId, userId, allowAccess).',
      security: adminSecurity,
      parameters: adminParameters,
      requestBody: {
        required: false,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              properties: {
                allowAccess: { type: 'boolean', default: false, description: 'true lifts the block' },
              },
            },
          },
        },
      },
      responses: {
        '200': json('Recorded', { $ref: '#/components/schemas/DeviceAccessChange' }),
        ...errors(400, 401, 404, 503),
      },
    },
  },
  '/api/v1/admin/tenants/{tenantId}/risk-rules/blocked-countries': {
    parameters: [pathParam('tenantId', 'Tenant ID')],
    get: {
      summary: "The tenant's location rule",
      security: adminSecurity,
      parameters: adminParameters,
      responses: {
        '200': json('The rule', { $ref: '#/components/schemas/BlockedCountries' }),
        ...errors(401, 404, 503),
      },
    },
    put: {
      summary: 'Block sign-ins from these countries',
      description:
        'Sign-ins from a listed country (by the caller IP) end with the redirect error risk_access_restriction and a restricted_location activity (status blocked). Publishes administrator_create_risk_rule (data: ruleType blocked_countries) the first time, administrator_update_risk_rule (data: diff) on a change, nothing when the list is the same.',
      security: adminSecurity,
      parameters: adminParameters,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['countries'],
              additionalProperties: false,
              properties: {
                countries: {
                  type: 'array',
                  minItems: 1,
                  maxItems: 250,
                  items: { type: 'string', pattern: '^[A-Za-z]{2}$' },
                  description: 'assigned ISO 3166-1 alpha-2 codes (any case)',
                },
              },
            },
          },
        },
      },
      responses: {
        '200': json('The rule', { $ref: '#/components/schemas/BlockedCountries' }),
        ...errors(400, 401, 404, 503),
      },
    },
    delete: {
      summary: 'Remove the location rule',
      description:
        'Publishes administrator_remove_risk_rule (data: ruleType blocked_countries) when there was a rule.',
      security: adminSecurity,
      parameters: adminParameters,
      responses: {
        '200': json('The rule, now empty', { $ref: '#/components/schemas/BlockedCountries' }),
        ...errors(401, 404, 503),
      },
    },
  },
  '/api/v1/admin/keys/rotate': {
    post: {
      summary: 'Rotate the signing and encryption keys',
      description: "Publishes administrator_rotate_keys with tenantId '*' (platform-wide).",
      security: adminSecurity,
      parameters: adminParameters,
      responses: {
        '200': json('The new keys', { $ref: '#/components/schemas/RotatedKeys' }),
        ...errors(401, 503),
      },
    },
  },
};
