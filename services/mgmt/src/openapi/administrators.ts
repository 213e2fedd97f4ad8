import {
  adminOperation,
  closedObject,
  displayName,
  epochMs,
  errors,
  json,
  jsonBody,
  param,
  pathParam,
  ref,
  tenantIdParam,
} from './common';
import { arrayOf, listed } from './list-answer';

const role = { enum: ['owner', 'administrator', 'support'] };
const email = { type: 'string', description: 'lower-cased' };
const token = closedObject(['tokenId', 'name', 'email', 'createdAt', 'expiresAt'], {
  tokenId: { type: 'string', description: 'the session id of the admin events the token causes' },
  name: { type: 'string' },
  email: { ...email, description: 'the administrator whose token it is (lower-cased)' },
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
      cancelledAt: epochMs,
      cancelledBy: { type: 'string', description: 'who cancelled it, or whose change voided it' },
      cancelReason: {
        enum: ['cancelled', 'replaced', 'removed', 'role_changed'],
        description:
          'cancelled by an Owner; replaced by a newer invitation to the same address; its invitee or inviter was removed or changed role',
      },
      status: {
        enum: ['pending', 'accepted', 'cancelled', 'expired'],
        description: 'in the list and the cancel answer',
      },
    },
  ),
  PersonalApiToken: token,
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
        'Owners only. The last Owner cannot be demoted (409 last_owner). A change voids the open invitations to and by them (administrator_cancel_invitation, reason role_changed). Publishes administrator_update_admin_role (data: email, diff).',
      requestBody: jsonBody(closedObject(['role'], { role })),
      responses: { '200': json('The administrator', ref('Administrator')), ...errors(400, 401, 404, 409) },
    }),
    delete: adminOperation({
      summary: 'Remove an administrator',
      description:
        'Owners only. Their personal API tokens stop working at once, and the open invitations to and by them are voided (administrator_cancel_invitation, reason removed). The last Owner cannot be removed (409 last_owner). Publishes administrator_remove_admin_account (data: email).',
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
        'Owners only. Mails a single-use link ({admin_url}/console/invitations/…, valid SESAME_ADMIN_INVITATION_TTL_H hours, 72 by default); the link shows who invited, the role and the expiry, and accepting requires signing in to the console with that email. The older open invitations to the same address in the tenant are voided (replaced; administrator_cancel_invitation with data email, reason, count). At most 10 invitation mails per address per day: 429 too_many_requests naming the limit, with Retry-After, nothing stored or sent. An invitation stops working when its inviter is removed or is no longer an Owner. Publishes administrator_tenant_invitation (data: email).',
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
      responses: { '201': json('Invited', ref('Invitation')), ...errors(400, 401, 404, 409, 429, 503) },
    }),
    get: adminOperation({
      summary: "List the tenant's invitations",
      description:
        'Owners and Administrators. The open ones (pending: neither accepted, cancelled nor expired), or with status=all every one with its status.',
      pathParams: [param('query', 'status', 'pending (default) or all', { enum: ['pending', 'all'] }, false)],
      responses: { ...listed('Invitations', 'invitations', 'Invitation'), ...errors(400, 401, 404) },
    }),
  },
  [`${T}/invitations/{invitationId}`]: {
    parameters: [tenantIdParam, pathParam('invitationId', 'Invitation ID')],
    delete: adminOperation({
      summary: 'Cancel an invitation',
      description:
        'Owners only. Its link stops working at once (410 invitation_cancelled in the console). 404 invitation_not_found for none in this tenant; 409 invitation_used for an accepted one (remove the administrator instead), 409 invitation_cancelled for one already voided. Publishes administrator_cancel_invitation (data: invitationId, email, role, reason).',
      responses: { '200': json('The cancelled invitation', ref('Invitation')), ...errors(401, 404, 409) },
    }),
  },
  [`${T}/tokens`]: {
    parameters: [tenantIdParam],
    post: adminOperation({
      summary: 'Create a personal API token: refused on the admin API',
      description:
        'Only a console session with a recent sign-in makes personal API tokens (Personal API tokens, Create token): a personal API token calling this is 403 `step_up_required` (a token may not make tokens, so none outlives its parent), the bootstrap key 403 `forbidden` (it is nobody). Kept so that a script gets that answer rather than a 404.',
      requestBody: jsonBody(
        closedObject(['name'], {
          name: displayName(100),
          expiresInDays: { type: 'integer', minimum: 1, maximum: 366, description: 'default 90' },
        }),
      ),
      responses: errors(400, 401, 404),
    }),
    get: adminOperation({
      summary: "List one's own personal API tokens (an Owner with all=true: every administrator's)",
      description:
        "Revoked ones included. `all=true` lists every administrator's tokens of the tenant: Owners only (403 `forbidden` otherwise). A token on another tenant than its own is 403 `token_tenant_mismatch`.",
      pathParams: [
        param(
          'query',
          'all',
          "true: every administrator's tokens of the tenant (Owners only)",
          { enum: ['true', 'false'] },
          false,
        ),
      ],
      responses: { ...listed('Tokens', 'tokens', 'PersonalApiToken'), ...errors(400, 401, 404) },
    }),
  },
  [`${T}/tokens/{tokenId}`]: {
    parameters: [tenantIdParam, pathParam('tokenId', 'Token ID')],
    delete: adminOperation({
      summary: "Revoke one's own personal API token (an Owner: any administrator's of the tenant)",
      description:
        "Publishes administrator_revoke_api_token (data: tokenId, name, email of whose token it is) as the caller. 404 `token_not_found` for a token that is not live, not of the tenant, or (not an Owner) not one's own.",
      responses: { '200': json('The revoked token', ref('PersonalApiToken')), ...errors(401, 404) },
    }),
  },
};
