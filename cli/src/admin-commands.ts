import type { Command } from './command';

const str = (o: Record<string, unknown>, name: string) => o[name] as string;
const seg = (v: string) => encodeURIComponent(v);
const iso = (ms: number) => new Date(ms).toISOString();
const tenantPath = (o: Record<string, unknown>) => `/api/v1/admin/tenants/${seg(str(o, 'tenant'))}`;

type Administrator = { email: string; role: string; createdAt: number; lastSignInAt?: number };
type Invitation = { invitationId: string; email: string; role: string; expiresAt: number };
type Token = { tokenId: string; name: string; token?: string; expiresAt: number; revokedAt?: number };

/**
 * Administrators and personal API tokens (docs/admin-api-and-cli.md). Inviting, removing and role changes
 * are for Owners; every role manages its own tokens. The bootstrap key has no tokens of its own.
 */
export const adminCommands: Record<string, Command> = {
  'admin list': {
    usage: 'admin list --tenant TENANT_ID',
    options: ['tenant'],
    required: ['tenant'],
    async run(call, o) {
      const out = await call<{ administrators: Administrator[]; invitations: Invitation[] }>(
        'GET',
        `${tenantPath(o)}/administrators`,
      );
      const text = [
        ...out.administrators.map(
          (a) => `${a.email}  ${a.role}  (last sign-in ${a.lastSignInAt ? iso(a.lastSignInAt) : 'never'})`,
        ),
        ...out.invitations.map((i) => `${i.email}  ${i.role}  (invited, until ${iso(i.expiresAt)})`),
      ];
      return { json: out, text: text.length ? text : ['No administrators.'] };
    },
  },
  'admin invite': {
    usage:
      "admin invite --tenant TENANT_ID --email EMAIL --role owner|administrator|support [--locale en|de|fr]   (the mail's language)",
    options: ['tenant', 'email', 'role', 'locale'],
    required: ['tenant', 'email', 'role'],
    async run(call, o) {
      const i = await call<Invitation>('POST', `${tenantPath(o)}/invitations`, {
        email: str(o, 'email'),
        role: str(o, 'role'),
        ...(o.locale !== undefined ? { locale: str(o, 'locale') } : {}),
      });
      return {
        json: { invitationId: i.invitationId, email: i.email, role: i.role, expiresAt: i.expiresAt },
        text: [
          `Invited ${i.email} as ${i.role} (the link in their mail works once, until ${iso(i.expiresAt)})`,
        ],
      };
    },
  },
  'admin remove': {
    danger:
      'removes the administrator: they lose access to the console and the admin API of this tenant at once',
    usage: 'admin remove --tenant TENANT_ID --email EMAIL',
    options: ['tenant', 'email'],
    required: ['tenant', 'email'],
    async run(call, o) {
      const out = await call<{ revokedTokens: number }>(
        'DELETE',
        `${tenantPath(o)}/administrators/${seg(str(o, 'email'))}`,
      );
      return {
        json: { email: str(o, 'email').toLowerCase(), revokedTokens: out.revokedTokens },
        text: [`Removed ${str(o, 'email')} (${out.revokedTokens} personal API token(s) revoked)`],
      };
    },
  },
  'token list': {
    usage: 'token list --tenant TENANT_ID',
    options: ['tenant'],
    required: ['tenant'],
    async run(call, o) {
      const { tokens } = await call<{ tokens: Token[] }>('GET', `${tenantPath(o)}/tokens`);
      const text = tokens.map(
        (t) =>
          `${t.tokenId}  ${t.name}  ${t.revokedAt ? `revoked ${iso(t.revokedAt)}` : `expires ${iso(t.expiresAt)}`}`,
      );
      return { json: { tokens }, text: text.length ? text : ['No personal API tokens.'] };
    },
  },
  'token revoke': {
    danger: 'revokes the personal API token: scripts and CLI sessions using it fail at once',
    usage: 'token revoke --tenant TENANT_ID --token-id TOKEN_ID',
    options: ['tenant', 'token-id'],
    required: ['tenant', 'token-id'],
    async run(call, o) {
      const t = await call<Token>('DELETE', `${tenantPath(o)}/tokens/${seg(str(o, 'token-id'))}`);
      return { json: { tokenId: t.tokenId, revokedAt: t.revokedAt }, text: [`Revoked token ${t.tokenId}`] };
    },
  },
};
