import type { Command, Options } from './command';

const str = (o: Options, name: string) => o[name] as string;
const userPath = (o: Options, action: string) =>
  `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant'))}/users/${encodeURIComponent(str(o, 'user'))}/${action}`;
const iso = (ms: number) => new Date(ms).toISOString();

type Session = {
  deviceName: string;
  os: string;
  browser: string;
  place: string;
  startedAt: number;
  lastSeenAt: number;
  apps: { clientId: string; name: string }[];
};
type SignedOut = { userId: string; endedSessions?: number; notifiedApps?: string[] };
type StatusChange = { userId: string; disabled: boolean; changedAt?: number; endedSessions?: number };

const status = (disabled: boolean): Command => ({
  usage: `user ${disabled ? 'disable' : 'enable'} --tenant TENANT_ID --user USER_ID`,
  options: ['tenant', 'user'],
  required: ['tenant', 'user'],
  ...(disabled
    ? {
        danger:
          'disables this person in the tenant: they cannot sign in to any of its applications until enabled again, and their sessions and tokens end at once',
      }
    : {}),
  async run(call, o) {
    const out = await call<StatusChange>('POST', userPath(o, disabled ? 'disable' : 'enable'), {});
    return {
      json: out,
      text: [
        disabled
          ? `Disabled ${str(o, 'user')}: sign-ins are refused; ${out.endedSessions ?? 0} sessions ended`
          : `Enabled ${str(o, 'user')}: they may sign in again`,
      ],
    };
  },
});

/**
 * A person's sessions and access (issue 38), as on the console's person page: `user sessions`, `user
 * sign-out-everywhere` and `user disable` (destructive: asked, or --yes), `user enable`.
 */
export const personAccessCommands: Record<string, Command> = {
  'user sessions': {
    usage: 'user sessions --tenant TENANT_ID --user USER_ID',
    options: ['tenant', 'user'],
    required: ['tenant', 'user'],
    async run(call, o) {
      const { sessions } = await call<{ sessions: Session[] }>('GET', userPath(o, 'sessions'));
      return {
        json: { sessions },
        text: sessions.length
          ? sessions.map(
              (s) =>
                `${[s.browser, s.os || s.deviceName].filter(Boolean).join(' on ') || 'Unknown device'}${s.place ? `, ${s.place}` : ''}: started ${iso(s.startedAt)}, last seen ${iso(s.lastSeenAt)}; ${s.apps.map((a) => a.name).join(', ')}`,
            )
          : ['Not signed in anywhere'],
      };
    },
  },
  'user sign-out-everywhere': {
    usage: 'user sign-out-everywhere --tenant TENANT_ID --user USER_ID',
    options: ['tenant', 'user'],
    required: ['tenant', 'user'],
    danger:
      'ends every session of this person, tells their applications to sign them out and ends their refresh tokens at once',
    async run(call, o) {
      const out = await call<SignedOut>('POST', userPath(o, 'sign-out-everywhere'), {});
      return {
        json: out,
        text: [
          `Signed ${str(o, 'user')} out everywhere: ${out.endedSessions ?? 0} sessions ended, ${(out.notifiedApps ?? []).length} applications told; refresh tokens ended`,
        ],
      };
    },
  },
  'user disable': status(true),
  'user enable': status(false),
};
