import { adminOperation, closedObject, errors, json, jsonBody, object, ref, tenantIdParam } from './common';

const T = '/api/v1/admin/tenants/{tenantId}';

/** Sign-in attempts by typed address (issue 38); listing them is GET …/flows?email=. */
export const schemas = {
  ErasedAttempts: object(['email', 'erased'], {
    email: { type: 'string', description: 'The address, lower-case' },
    erased: { type: 'integer', minimum: 0, description: 'How many sign-in records were deleted' },
  }),
};

export const paths = {
  [`${T}/attempts/erase`]: {
    parameters: [tenantIdParam],
    post: adminOperation({
      summary: 'Erase the sign-in attempts of an address',
      description:
        'Deletes every sign-in record of the tenant the address was typed in (matched lower-case), with or without an account. Publishes administrator_erase_attempts {email, erased}. Role: Administrator or Owner. Answers 503 support_unavailable when this server has no support look-up configured.',
      requestBody: jsonBody(
        closedObject(['email'], { email: { type: 'string', format: 'email', maxLength: 254 } }),
      ),
      responses: {
        '200': json('The address and how many records were erased', ref('ErasedAttempts')),
        ...errors(400, 401, 404, 503),
      },
    }),
  },
};
