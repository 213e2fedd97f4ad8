import { CliError } from './admin-client';
import type { Command, Options } from './command';
import { localTime, table } from './logs-commands';

const str = (o: Options, name: string) => o[name] as string;
const tenantPath = (o: Options) => `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant'))}`;
const userPath = (o: Options) => `${tenantPath(o)}/users/${encodeURIComponent(str(o, 'user'))}`;

type Listed = {
  userId: string;
  email: string;
  createdAt: number;
  lastSignIn?: number;
  disabled: boolean;
  passkeys: number;
};
type Passkey = {
  credentialId: string;
  model?: string;
  createdAt: number;
  lastUsedAt?: number;
  deviceName: string;
  suspected: boolean;
};
type Detail = {
  userId: string;
  email: string;
  createdAt?: number;
  disabledAt?: number;
  phoneMasked?: string;
  passkeys?: Passkey[];
  devices: { name: string; lastSeen: number; blocked: boolean }[];
  memberships: { appName: string; alias?: string; lastLogin?: number }[];
};
type Added = { email: string; appId: string; sent: boolean; expiresAt: number };

/** --limit as the list takes it: a whole number from 1 to 200 (a usage mistake otherwise, nothing sent). */
function limitOf(o: Options): string | undefined {
  const limit = o.limit as string | undefined;
  if (limit === undefined) return undefined;
  if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 200) {
    throw new CliError('--limit must be a whole number from 1 to 200', 2);
  }
  return limit;
}

function detailText(u: Detail): string[] {
  const keys = u.passkeys ?? [];
  return [
    `${u.email} (${u.userId})`,
    `  created:  ${u.createdAt ? localTime(u.createdAt) : 'unknown'}`,
    `  status:   ${u.disabledAt ? `disabled since ${localTime(u.disabledAt)}` : 'enabled'}`,
    `  phone:    ${u.phoneMasked ?? 'none'}`,
    `  passkeys: ${keys.length ? '' : 'none'}`.trimEnd(),
    ...keys.map(
      (k) =>
        `    ${k.credentialId}  ${k.model ?? 'Passkey'} made on ${k.deviceName}, created ${localTime(k.createdAt)}, ${k.lastUsedAt ? `last used ${localTime(k.lastUsedAt)}` : 'never used'}${k.suspected ? ' (suspected clone)' : ''}`,
    ),
    `  devices:  ${u.devices.length ? '' : 'none'}`.trimEnd(),
    ...u.devices.map(
      (d) => `    ${d.name}, last seen ${localTime(d.lastSeen)}${d.blocked ? ' (blocked)' : ''}`,
    ),
    `  applications: ${u.memberships.length ? '' : 'none'}`.trimEnd(),
    ...u.memberships.map(
      (m) =>
        `    ${m.appName}${m.alias ? ` (alias ${m.alias})` : ''}${m.lastLogin ? `, last sign-in ${localTime(m.lastLogin)}` : ''}`,
    ),
  ];
}

/**
 * The tenant's people (issue 38), as the console's Users pages: `user list` (newest first, a page at a time),
 * `user show`, `user add` (sends the registration link), and the destructive `user passkey remove` and `user
 * phone remove` (asked, or --yes). Times are local; --json prints the admin API's answer (epoch ms).
 */
export const peopleCommands: Record<string, Command> = {
  'user list': {
    usage: 'user list --tenant TENANT_ID [--limit N] [--cursor CURSOR]',
    options: ['tenant', 'limit', 'cursor'],
    required: ['tenant'],
    async run(call, o) {
      const q = new URLSearchParams();
      const limit = limitOf(o);
      if (limit) q.set('limit', limit);
      if (o.cursor) q.set('cursor', str(o, 'cursor'));
      const query = q.size ? `?${q}` : '';
      const page = await call<{ people: Listed[]; nextCursor?: string }>(
        'GET',
        `${tenantPath(o)}/people${query}`,
      );
      const rows = table(
        ['EMAIL', 'USER ID', 'CREATED', 'LAST SIGN-IN', 'STATUS', 'PASSKEYS'],
        page.people.map((p) => [
          p.email,
          p.userId,
          localTime(p.createdAt),
          p.lastSignIn ? localTime(p.lastSignIn) : 'never',
          p.disabled ? 'disabled' : 'enabled',
          String(p.passkeys),
        ]),
      );
      return {
        json: page,
        text: [
          ...(page.people.length ? rows : ['No people in this tenant yet']),
          ...(page.nextCursor ? [`More: --cursor ${page.nextCursor}`] : []),
        ],
      };
    },
  },
  'user show': {
    usage: 'user show --tenant TENANT_ID --user USER_ID',
    options: ['tenant', 'user'],
    required: ['tenant', 'user'],
    async run(call, o) {
      const user = await call<Detail>('GET', userPath(o));
      return { json: user, text: detailText(user) };
    },
  },
  'user add': {
    usage: 'user add --tenant TENANT_ID --email ADDRESS --app APP_ID_OR_CLIENT_ID',
    options: ['tenant', 'email', 'app'],
    required: ['tenant', 'email', 'app'],
    async run(call, o) {
      const out = await call<Added>('POST', `${tenantPath(o)}/people`, {
        email: str(o, 'email'),
        app: str(o, 'app'),
      });
      return {
        json: out,
        text: [
          out.sent
            ? `Sent a registration link to ${out.email}, returning to application ${out.appId}; it works once, until ${localTime(out.expiresAt)}`
            : `The registration mail to ${out.email} could not be sent, so its link was revoked: try again later`,
        ],
      };
    },
  },
  'user passkey remove': {
    usage: 'user passkey remove --tenant TENANT_ID --user USER_ID --passkey CREDENTIAL_ID',
    options: ['tenant', 'user', 'passkey'],
    required: ['tenant', 'user', 'passkey'],
    danger:
      'removes this passkey: it cannot sign in any more (the person signs in with an emailed code and may make a new one)',
    async run(call, o) {
      const out = await call<{ userId: string; credentialId: string }>(
        'DELETE',
        `${userPath(o)}/passkeys/${encodeURIComponent(str(o, 'passkey'))}`,
      );
      return { json: out, text: [`Removed passkey ${str(o, 'passkey')} of ${str(o, 'user')}`] };
    },
  },
  'user phone remove': {
    usage: 'user phone remove --tenant TENANT_ID --user USER_ID',
    options: ['tenant', 'user'],
    required: ['tenant', 'user'],
    danger: "forgets this person's phone number",
    async run(call, o) {
      const out = await call<{ userId: string }>('DELETE', `${userPath(o)}/phone-number`);
      return { json: out, text: [`Removed the phone number of ${str(o, 'user')}`] };
    },
  },
};
