import {
  adminOperation,
  closedObject,
  epochMs,
  errors,
  json,
  jsonBody,
  param,
  pathParam,
  ref,
  tenantIdParam,
} from './common';

/** The list of people, Add a person, Remove passkey, Remove phone number (issue 38): routes/admin/people-routes.ts. */
const T = '/api/v1/admin/tenants/{tenantId}';
const str = { type: 'string' };
const userIdParam = pathParam('userId', 'User ID (sub)');
const unavailable = ' Answers 503 support_unavailable when this server has no support look-up configured.';

export const schemas = {
  ListedPerson: closedObject(['userId', 'email', 'createdAt', 'disabled', 'passkeys'], {
    userId: str,
    email: str,
    createdAt: epochMs,
    lastSignIn: { ...epochMs, description: 'epoch ms; absent: never signed in' },
    disabled: { type: 'boolean', description: 'Disabled in this tenant (not a global flag)' },
    passkeys: { type: 'integer', minimum: 0 },
  }),
  PersonAdded: closedObject(['status', 'email', 'appId', 'sent', 'expiresAt'], {
    status: { const: 'success' },
    email: { type: 'string', description: 'The address, lower-case' },
    appId: { type: 'string', description: 'The application the registration returns to' },
    sent: {
      type: 'boolean',
      description: 'false: the mail could not be sent, so the link was revoked at once (nobody can open it)',
    },
    expiresAt: { ...epochMs, description: 'epoch ms when the registration link stops working' },
  }),
  PasskeyRemoved: closedObject(['status', 'userId', 'credentialId'], {
    status: { const: 'success' },
    userId: str,
    credentialId: str,
  }),
  PhoneNumberRemoved: closedObject(['status', 'userId'], { status: { const: 'success' }, userId: str }),
};

export const paths = {
  [`${T}/people`]: {
    parameters: [tenantIdParam],
    get: adminOperation({
      summary: "The tenant's people, newest first",
      description: `Email, created, last sign-in, status (disabled in this tenant) and how many passkeys. Paged by an opaque cursor (a position, stable while people are added): pass nextCursor back as cursor; absent on the last page. Role: any.${unavailable}`,
      pathParams: [
        param('query', 'limit', '1 to 200, default 50', { type: 'integer', minimum: 1, maximum: 200 }, false),
        param('query', 'cursor', 'nextCursor of the previous page', str, false),
      ],
      responses: {
        '200': json(
          'One page',
          closedObject(['people'], {
            people: { type: 'array', items: ref('ListedPerson') },
            nextCursor: str,
          }),
        ),
        ...errors(400, 401, 404, 503),
      },
    }),
    post: adminOperation({
      summary: 'Add a person: send them the registration link',
      description:
        "Sends the address the application's registration link (as send-activation does, no alias); the person registers through it (single use, until expiresAt) and then goes to the application's registrationRedirectUri. `app` is the application's id or client id. 400 missing_registrationRedirectUri when the application has none; 404 application_not_found for an application not of this tenant; 429 too_many_requests (Retry-After) when the address was sent too many mails. Role: Administrator or Owner. Publishes administrator_add_person (data: email, appId, flowId).",
      requestBody: jsonBody(
        closedObject(['email', 'app'], {
          email: { type: 'string', format: 'email', maxLength: 254, description: 'Read lower-case' },
          app: { type: 'string', minLength: 1, maxLength: 256, description: 'Application ID or client ID' },
        }),
      ),
      responses: {
        '201': json('The link was mailed (unless `sent` is false)', ref('PersonAdded')),
        ...errors(400, 401, 404, 429, 503),
      },
    }),
  },
  [`${T}/users/{userId}/passkeys/{credentialId}`]: {
    parameters: [tenantIdParam, userIdParam, pathParam('credentialId', 'The passkey (credential ID)')],
    delete: adminOperation({
      summary: "Remove one of a person's passkeys",
      description: `The passkey stops working at once (a lost phone's passkey cannot sign in any more); the person's other passkeys, sessions and data stay. They sign in with an emailed code and may make a new passkey. 404 passkey_not_found for a passkey that is not this person's in this tenant. Role: any (Support too). Publishes administrator_remove_user_passkey (data: userId, credentialId).${unavailable}`,
      responses: {
        '200': json('Removed', ref('PasskeyRemoved')),
        ...errors(400, 401, 404, 503),
      },
    }),
  },
  [`${T}/users/{userId}/phone-number`]: {
    parameters: [tenantIdParam, userIdParam],
    delete: adminOperation({
      summary: "Remove a person's phone number",
      description: `Sesame forgets the person's phone number; their passkeys, sessions and memberships stay. An application that asks for phone verification no longer offers the old number: the person types one and confirms it by SMS again. 404 user_not_found for a person not of this tenant; 409 no_phone_number when they have none. Role: Administrator or Owner. Publishes administrator_remove_user_phone_number (data: userId).${unavailable}`,
      responses: {
        '200': json('Removed', ref('PhoneNumberRemoved')),
        ...errors(400, 401, 404, 409, 503),
      },
    }),
  },
};
