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
