import { errors, json, mgmtSecurity, param, pathParam, ref } from './common';

export const schemas = {};

export const paths = {
  '/api/v1/mgmt/users/{userIdentifier}': {
    delete: {
      summary: 'Remove a user from an application or the whole tenant (spec 4.8)',
      description:
        "Alias, ACR values and custom data of the association go; the user keeps its id and counts as new for the application at its next login. 400 codes: invalid_request (the spec's \"N/A\": invalid request structure, e.g. a parameter repeated or credentialsId missing), invalid_userIdentifierType, invalid_scope, missing_appId. 403: forbidden (credentialsId is not the token's, or appId is not of the token's tenant), user_not_found. The user's refresh tokens (of the tenant, or of that app) end too, and the removal publishes the admin event administrator_remove_user (data: userId, scope, appId for scope app; adminEmail `api-credentials`, sessionId the credentialsId). 503 temporarily_unavailable when auth or token cannot be reached; if the removal itself was done, the message names the user ID, and a retry with userIdentifierType=user_id ends the refresh tokens (it answers 403 user_not_found, since the user is gone).",
      security: mgmtSecurity,
      parameters: [
        pathParam('userIdentifier', 'User ID or alias'),
        param('query', 'userIdentifierType', 'user_id (the sub claim) or alias', {
          enum: ['user_id', 'alias'],
        }),
        param('query', 'scope', 'tenant (all apps) or app (one app)', { enum: ['tenant', 'app'] }),
        param('query', 'appId', 'Required when scope is app', { type: 'string' }, false),
        param('query', 'credentialsId', 'The API credentials ID the token was issued to', { type: 'string' }),
      ],
      responses: {
        '200': json('Removed', ref('Success')),
        ...errors(400, 401, 403, 503),
      },
    },
  },
};
