import {
  adminOperation,
  closedObject,
  displayName,
  epochMs,
  errors,
  json,
  jsonBody,
  pathParam,
  ref,
  tenantIdParam,
} from './common';
import { arrayOf, listed } from './list-answer';

const role = { enum: ['owner', 'administrator', 'support'] };
const email = { type: 'string', description: 'lower-cased' };
const token = closedObject(['tokenId', 'name', 'createdAt', 'expiresAt'], {
  tokenId: { type: 'string', description: 'the session id of the admin events the token causes' },
  name: { type: 'string' },
  createdAt: epochMs,
  expiresAt: epochMs,
  revokedAt: epochMs,
  lastUsedAt: epochMs,
});

export const schemas = {
  Administrator: closedObject(['email', 'role', 'createdAt'], {
    email,
    role,
    createdAt: epochMs,
    lastSignInAt: epochMs,
  }),
  Invitation: closedObject(
    ['invitationId', 'tenantId', 'email', 'role', 'invitedBy', 'createdAt', 'expiresAt'],
    {
      invitationId: { type: 'string' },
      tenantId: { type: 'string' },
      email,
      role,
      invitedBy: { type: 'string', description: 'the inviting administrator, or bootstrap-key' },
      createdAt: epochMs,
      expiresAt: epochMs,
      acceptedAt: epochMs,
    },
  ),
  PersonalApiToken: token,
  CreatedPersonalApiToken: {
    ...token,
    description: 'The new token; `token` (Authorization: Bearer on the admin API) is shown this once.',
    required: [...token.required, 'token'],
    properties: { ...token.properties, token: { type: 'string', pattern: '^sesame_pat_' } },
  },
};

const T = '/api/v1/admin/tenants/{tenantId}';
const emailParam = pathParam('email', "The administrator's email");

export const paths = {
  [`${T}/administrators`]: {
    parameters: [tenantIdParam],
    get: adminOperation({
      summary: "List the tenant's administrators and pending invitations",
      description: 'Owners and Administrators.',
      responses: {
        '200': json(
          'Administrators',
          closedObject(['administrators', 'invitations'], {
            administrators: arrayOf('Administrator'),
            invitations: arrayOf('Invitation'),
          }),
        ),
        ...errors(401, 404),
      },
    }),
    post: adminOperation({
      summary: 'Add an administrator without invitation (break-glass recovery)',
      description:
        'Only the bootstrap key while SESAME_ADMIN_BREAK_GLASS is on (a tenant whose Owners are gone; the development demo seeds its Owner so); 403 for everyone else: administrators join by invitation. Publishes administrator_tenant_invitation_status_approved (data: email, role, breakGlass) credited to bootstrap-key.',
      requestBody: jsonBody(closedObject(['email', 'role'], { email: { type: 'string' }, role })),
      responses: { '201': json('Added', ref('Administrator')), ...errors(400, 401, 404, 409) },
    }),
  },
  [`${T}/administrators/{email}`]: {
    parameters: [tenantIdParam, emailParam],
    patch: adminOperation({
      summary: "Change an administrator's role",
      description:
        'Owners only. The last Owner cannot be demoted (409 last_owner). Publishes administrator_update_admin_role (data: email, diff).',
      requestBody: jsonBody(closedObject(['role'], { role })),
      responses: { '200': json('The administrator', ref('Administrator')), ...errors(400, 401, 404, 409) },
    }),
    delete: adminOperation({
      summary: 'Remove an administrator',
      description:
        'Owners only. Their personal API tokens stop working at once. The last Owner cannot be removed (409 last_owner). Publishes administrator_remove_admin_account (data: email).',
      responses: {
        '200': json(
          'Removed',
          closedObject(['status', 'revokedTokens'], {
            status: { const: 'success' },
            revokedTokens: { type: 'integer' },
          }),
        ),
        ...errors(400, 401, 404, 409),
      },
    }),
  },
  [`${T}/invitations`]: {
    parameters: [tenantIdParam],
    post: adminOperation({
      summary: 'Invite an administrator',
      description:
        'Owners only. Mails a single-use link ({admin_url}/console/invitations/…, valid SESAME_ADMIN_INVITATION_TTL_H hours, 72 by default); accepting requires signing in to the console with that email. Publishes administrator_tenant_invitation (data: email).',
      requestBody: jsonBody(
        closedObject(['email', 'role'], {
          email: { type: 'string' },
          role,
          locale: {
            type: 'string',
            enum: ['en', 'de', 'fr'],
            description:
              "The invitation mail's language (the tenant's template in it, else Sesame's); default en.",
          },
        }),
      ),
      responses: { '201': json('Invited', ref('Invitation')), ...errors(400, 401, 404, 409) },
    }),
  },
  [`${T}/tokens`]: {
    parameters: [tenantIdParam],
    post: adminOperation({
      summary: 'Create a personal API token',
      description:
        "Every role, for oneself (the bootstrap key has none: 403). The token acts with its administrator's role; only its sha256 hash is stored.",
      requestBody: jsonBody(
        closedObject(['name'], {
          name: displayName(100),
          expiresInDays: { type: 'integer', minimum: 1, maximum: 366, description: 'default 90' },
        }),
      ),
      responses: { '201': json('Created', ref('CreatedPersonalApiToken')), ...errors(400, 401, 404) },
    }),
    get: adminOperation({
      summary: "List one's own personal API tokens (revoked ones included)",
      responses: { ...listed('Tokens', 'tokens', 'PersonalApiToken'), ...errors(401, 404) },
    }),
  },
  [`${T}/tokens/{tokenId}`]: {
    parameters: [tenantIdParam, pathParam('tokenId', 'Token ID')],
    delete: adminOperation({
      summary: "Revoke one of one's own personal API tokens",
      responses: { '200': json('The revoked token', ref('PersonalApiToken')), ...errors(401, 404) },
    }),
  },
};
