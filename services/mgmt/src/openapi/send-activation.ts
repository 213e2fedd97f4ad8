import { ACR_VALUES } from '@sesame/oauth';
import {
  adminOperation,
  appIdParam,
  closedObject,
  errors,
  json,
  jsonBody,
  mgmtSecurity,
  ref,
  tenantIdParam,
} from './common';

const text = (max: number, description: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: max,
  description,
});

export const schemas = {
  SendActivationRequest: {
    type: 'object',
    required: ['clientId', 'credentialsId', 'userEmail', 'scopes', 'verifications'],
    properties: {
      clientId: text(256, 'Client (application) of the token’s tenant the user registers for'),
      credentialsId: text(256, 'The API credentials ID the token was issued to'),
      userEmail: { type: 'string', format: 'email', maxLength: 254, description: 'Receives the link' },
      scopes: {
        type: 'array',
        items: { enum: ['email', 'phone'] },
        uniqueItems: true,
        description: 'May be empty; each must be allowed for the application (else 400 invalid_scope)',
      },
      verifications: {
        description:
          'What the person proves during the registration: the link itself proves the email; ts.svc.iac.phone_number adds a mobile number verified by an SMS code before the passkey step.',
        type: 'array',
        items: { enum: [...ACR_VALUES] },
        uniqueItems: true,
      },
      alias: {
        type: 'object',
        required: ['type'],
        description: 'Required unless confirmedUser is false. type email sets the alias to userEmail.',
        properties: {
          type: { enum: ['none', 'email', 'alias'] },
          value: text(200, 'Required when type is alias, refused otherwise'),
        },
      },
      confirmedUser: {
        type: 'boolean',
        default: true,
        description:
          'Bind the user to the application after registration (as if session feedback confirmed it)',
      },
      customMessage: text(1000, 'Shown during the registration'),
      secondaryCompletionMessage: text(1000, 'Shown on the phone in a desktop-to-mobile registration'),
      completionMessage: {
        type: 'object',
        required: ['text'],
        properties: {
          text: text(1000, 'Shown on the completion page'),
          link: {
            type: 'object',
            required: ['redirectUri', 'label'],
            properties: {
              redirectUri: text(2000, 'One of the application’s redirect URIs'),
              label: text(200, 'The link’s text'),
            },
          },
        },
      },
    },
  },
  SendActivationResponse: closedObject(['status', 'activationResult'], {
    status: { enum: ['success', 'failure'], description: 'success when every channel sent the link' },
    activationResult: closedObject(['channelsResult'], {
      channelsResult: {
        type: 'array',
        items: closedObject(['channelType', 'target', 'status'], {
          channelType: { const: 'email' },
          target: { type: 'string', description: 'The address the link was sent to' },
          status: { enum: ['sent', 'failed'] },
        }),
      },
    }),
  }),
};

const linkSent = {
  '200': json('The link was sent (or the channel says why not)', ref('SendActivationResponse')),
};

export const paths = {
  '/api/v1/mgmt/send-activation': {
    post: {
      summary: 'Mail a registration link (spec 4.5)',
      description:
        'The link is single use, kept hashed, and lives 30 minutes (or the application’s registrationLinkExpiresIn). Opening it verifies the email, lets the person create a passkey (or go on with email codes), binds them to the application when confirmedUser, and ends on the completion page, then back to the application’s registrationRedirectUri. 400 codes: invalid_request (error.fields names each field), invalid_scope, missing_registrationRedirectUri (the application has none). 403 forbidden: credentialsId is not the token’s, or clientId is not an application of the token’s tenant (unknown or another tenant’s: the same answer). 409 alias_taken: another user of the application holds the alias. Activity: custodian_registration_started, new_user_registered, custodian_registration_completed (flowType enrollment); no admin event (an API call, not an Admin Portal action).',
      security: mgmtSecurity,
      requestBody: jsonBody(ref('SendActivationRequest')),
      responses: {
        ...linkSent,
        ...errors(400, 401, 403, 409, 503),
      },
    },
  },
  '/api/v1/admin/tenants/{tenantId}/applications/{appId}/invitations': {
    post: adminOperation({
      summary: 'Mail a registration link with the admin key (the CLI’s user invite)',
      description:
        'send-activation for one application of a tenant: the body of spec 4.5 without clientId and credentialsId, the same checks and response. No admin event (spec 2.5 names none); the registration’s activity record shows it.',
      pathParams: [tenantIdParam, appIdParam],
      requestBody: jsonBody(ref('SendActivationRequest')),
      responses: {
        ...linkSent,
        ...errors(400, 401, 404, 409, 503),
      },
    }),
  },
};
