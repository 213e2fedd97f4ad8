// OpenAPI 3.1 fragment for POST /api/v1/mgmt/activity-logs (spec 4.6, 2.4, 8). Merged into /openapi.json.
// References: #/components/schemas/* (below) and the bearer security scheme `bearerAuth` of the document.

import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@sesame/oauth';
import { json, jsonBody, logsErrors, object, ref } from './common';

const deviceInfo = {
  type: 'object',
  description: 'DeviceInfo (spec 2.4); members the flow never reported are left out.',
  properties: Object.fromEntries(
    ['osType', 'osVersion', 'browserType', 'browserVersion', 'detectedName', 'alias'].map((k) => [
      k,
      { type: 'string' },
    ]),
  ),
};

export const schemas = {
  MgmtErrorBody: object(['status', 'error'], {
    status: { const: 'error' },
    error: object(['code', 'message'], {
      code: { type: 'string', examples: ['invalid_request', 'forbidden'] },
      message: { type: 'string' },
      fields: {
        type: 'object',
        description: 'For invalid_request: each offending field and what is wrong with it.',
        additionalProperties: { type: 'string' },
      },
    }),
  }),
  ActivityLogsRequest: {
    type: 'object',
    required: ['appId', 'credentialsId', 'timeStart', 'timeEnd'],
    properties: {
      appId: { type: 'string', minLength: 1, description: 'Application ID (of the token’s tenant).' },
      credentialsId: {
        type: 'string',
        minLength: 1,
        description: 'API credentials ID the token was issued to.',
      },
      timeStart: {
        type: 'integer',
        minimum: 0,
        description: 'Inclusive, epoch ms (on the record timestamp).',
      },
      timeEnd: {
        type: 'integer',
        minimum: 0,
        description: 'Exclusive, epoch ms; must be greater than timeStart.',
      },
      pageSize: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_PAGE_SIZE,
        default: DEFAULT_PAGE_SIZE,
        description: 'Records per page.',
      },
      userId: { type: 'string', minLength: 1, description: 'Only flows of this user.' },
      userAlias: { type: 'string', minLength: 1, description: 'Only flows of this alias.' },
      skip: {
        type: 'integer',
        minimum: 0,
        default: 0,
        description: 'Records skipped, counted from the newest.',
      },
    },
  },
  DeviceInfo: deviceInfo,
  ActivityLogEvent: object(['id', 'timestamp', 'payload'], {
    id: { type: 'string' },
    timestamp: { type: 'integer', description: 'Epoch ms.' },
    payload: object(['flowId', 'details'], {
      flowId: { type: 'string' },
      details: {
        ...object(['action', 'clientIp'], {
          action: { type: 'string', description: 'One of the action values of spec 2.4.' },
          clientIp: { type: 'string' },
        }),
        additionalProperties: { type: ['string', 'number', 'boolean'] },
      },
    }),
  }),
  ActivityLogRecord: {
    type: 'object',
    description:
      'One record per flow. timestamp is the time of the flow’s first event; every other fact is the latest value the flow reported.',
    required: ['id', 'applicationId', 'businessUnit', 'timestamp', 'events'],
    properties: {
      id: { type: 'string', description: 'Flow ID.' },
      userId: { type: 'string' },
      userAlias: { type: 'string' },
      applicationId: { type: 'string' },
      businessUnit: { type: 'string', description: 'Tenant ID.' },
      timestamp: { type: 'integer', description: 'Epoch ms.' },
      accessingDevice: { type: 'string' },
      accessingDeviceInfo: { $ref: '#/components/schemas/DeviceInfo' },
      accessingDeviceLocation: {
        type: 'object',
        description: 'lat and lng are numbers.',
        properties: {
          lat: { type: 'number' },
          lng: { type: 'number' },
          city: { type: 'string' },
          country: { type: 'string' },
          state: { type: 'string' },
          source: { type: 'string' },
        },
      },
      accessingIp: { type: 'string' },
      authenticatingDevice: { type: 'string' },
      authenticatingDeviceInfo: { $ref: '#/components/schemas/DeviceInfo' },
      authMethodType: { type: 'string', enum: ['fido2', 'email_otp', 'email_magic_link', 'device_only'] },
      consentDecision: { type: 'string', enum: ['approve', 'use_mobile', 'reject', 'failed_unexpectedly'] },
      desktopLoginDecision: { type: 'string', enum: ['login', 'use_mobile'] },
      desktopTransactionDecision: {
        type: 'string',
        enum: ['approve', 'use_mobile', 'reject', 'failed_unexpectedly'],
      },
      errorCode: { type: 'string', enum: ['Consent_screen_rejected', 'auth_failure'] },
      failureReason: { type: 'string' },
      flowType: { type: 'string', enum: ['authentication', 'transaction', 'ciba', 'enrollment'] },
      isNewAuthenticationDeviceForRP: { type: 'boolean' },
      status: {
        type: 'string',
        enum: ['success', 'failure', 'suspected', 'blocked', 'enrollment', 'incomplete'],
      },
      events: { type: 'array', items: { $ref: '#/components/schemas/ActivityLogEvent' } },
    },
  },
  ActivityLogsResponse: object(['activityLogs', 'total'], {
    activityLogs: { type: 'array', items: ref('ActivityLogRecord') },
    total: { type: 'integer', description: 'Number of records returned in this response.' },
  }),
};

export const paths = {
  '/api/v1/mgmt/activity-logs': {
    post: {
      operationId: 'listActivityLogs',
      summary: 'List user activity logs (one record per flow), newest first',
      tags: ['management'],
      security: [{ bearerAuth: [] }],
      requestBody: jsonBody(ref('ActivityLogsRequest')),
      responses: {
        '200': json('A page of activity logs.', ref('ActivityLogsResponse')),
        ...logsErrors('credentialsId is not the token’s, or the app is not of the token’s tenant.'),
      },
    },
  },
};
