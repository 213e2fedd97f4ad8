// Over 300 lines on purpose: the CLI's command table, one small entry per command, read as the `--help`
// listing is; the larger command groups already live in their own files (admin-, interactive-, client-type-).
import { CliError } from './admin-client';
import { adminCommands } from './admin-commands';
import { attemptsCommands } from './attempts-commands';
import { brandingCommands } from './branding-commands';
import { PENDING_ANSWER_USAGE, cibaCommands, strictErrorsOf } from './ciba-commands';
import { clientTypeCommands } from './client-type-commands';
import type { Command, Options } from './command';
import { dpopCommands } from './dpop-commands';
import { interactiveCommands } from './interactive-commands';
import { invitationCommands } from './invitation-commands';
import { logoutCommands } from './logout-commands';
import { logsCommands } from './logs-commands';
import { mtlsCommands } from './mtls-commands';
import { peopleCommands } from './people-commands';
import { personAccessCommands } from './person-access-commands';
import { profileCommands } from './profile-commands';
import { signingCommands } from './signing-commands';
import { tenantUseCommand } from './tenant-context';

export type { Command, Options, Output } from './command';

const str = (o: Options, name: string) => o[name] as string;
const path = (...parts: string[]) => parts.map(encodeURIComponent).join('/');
const iso = (ms: number) => new Date(ms).toISOString();

type Tenant = { tenantId: string; name: string; createdAt: number };
type App = {
  appId: string;
  name: string;
  clientId: string;
  clientSecret?: string;
  public: boolean;
  redirectUris: string[];
};
type Activation = {
  status: string;
  activationResult: { channelsResult: { channelType: string; target: string; status: string }[] };
};
type Credentials = { credentialsId: string; apiSecret?: string; createdAt: number; revokedAt?: number };

/**
 * The refreshTokens settings of --refresh-tokens on|off [--refresh-absolute-lifetime S]
 * [--refresh-idle-lifetime S]; undefined when none of them is given (the app's setting is left alone).
 */
function refreshTokensOf(o: Options): Record<string, unknown> | undefined {
  const toggle = o['refresh-tokens'] as string | undefined;
  const lifetimes: Record<string, number> = {};
  for (const [option, field] of [
    ['refresh-absolute-lifetime', 'absoluteLifetimeS'],
    ['refresh-idle-lifetime', 'idleLifetimeS'],
  ] as const) {
    const given = o[option] as string | undefined;
    if (given === undefined) continue;
    if (!/^\d+$/.test(given)) throw new CliError(`--${option} must be a number of seconds`, 2);
    lifetimes[field] = Number(given);
  }
  if (toggle === undefined) {
    if (Object.keys(lifetimes).length) throw new CliError('lifetimes need --refresh-tokens on', 2);
    return undefined;
  }
  if (toggle !== 'on' && toggle !== 'off') throw new CliError('--refresh-tokens must be on or off', 2);
  return { enabled: toggle === 'on', ...lifetimes };
}

const REFRESH_USAGE = '[--refresh-tokens on|off [--refresh-absolute-lifetime S] [--refresh-idle-lifetime S]]';
const REFRESH_OPTIONS = ['refresh-tokens', 'refresh-absolute-lifetime', 'refresh-idle-lifetime'];

export const commands: Record<string, Command> = {
  'tenant create': {
    example: 'tenant create --name Acme',
    usage: 'tenant create --name NAME',
    options: ['name'],
    required: ['name'],
    async run(call, o) {
      const t = await call<Tenant>('POST', '/api/v1/admin/tenants', { name: str(o, 'name') });
      return {
        json: { tenantId: t.tenantId },
        text: [`Created tenant "${t.name}"`, `  tenantId: ${t.tenantId}`],
      };
    },
  },
  'tenant bootstrap': {
    example: 'tenant bootstrap --name Acme --owner-email ann@example.com',
    usage:
      'tenant bootstrap --name NAME --owner-email EMAIL   (bootstrap key: first tenant, Owner invited by mail)',
    options: ['name', 'owner-email'],
    required: ['name', 'owner-email'],
    async run(call, o) {
      const t = await call<Tenant & { invitation: { email: string; expiresAt: number } }>(
        'POST',
        '/api/v1/admin/tenants',
        { name: str(o, 'name'), ownerEmail: str(o, 'owner-email') },
      );
      return {
        json: { tenantId: t.tenantId, ownerEmail: t.invitation.email },
        text: [
          `Created tenant "${t.name}"`,
          `  tenantId: ${t.tenantId}`,
          `  invited ${t.invitation.email} as its first Owner (the mailed link works once, until ${iso(t.invitation.expiresAt)})`,
        ],
      };
    },
  },
  'tenant list': {
    usage: 'tenant list',
    options: [],
    required: [],
    async run(call) {
      const { tenants } = await call<{ tenants: Tenant[] }>('GET', '/api/v1/admin/tenants');
      const text = tenants.length
        ? tenants.map((t) => `${t.name}  ${t.tenantId}  (created ${iso(t.createdAt)})`)
        : ['No tenants.'];
      return { json: { tenants }, text };
    },
  },
  'tenant use': tenantUseCommand,
  'app create': {
    usage: `app create --tenant TENANT_ID --name NAME --redirect-uri URI [--redirect-uri URI ...] [--public] [--ciba-mode poll|ping --ciba-notification-endpoint URL] ${PENDING_ANSWER_USAGE} ${REFRESH_USAGE}`,
    options: [
      'tenant',
      'name',
      'redirect-uri',
      'public',
      'ciba-mode',
      'ciba-notification-endpoint',
      'ciba-pending-answer',
      ...REFRESH_OPTIONS,
    ],
    required: ['tenant', 'name', 'redirect-uri'],
    async run(call, o) {
      const mode = o['ciba-mode'] as string | undefined;
      if (mode !== undefined && mode !== 'poll' && mode !== 'ping')
        throw new CliError('--ciba-mode must be poll or ping', 2);
      if (mode === 'ping' && !o['ciba-notification-endpoint']) {
        throw new CliError('--ciba-mode ping needs --ciba-notification-endpoint URL', 2);
      }
      const endpoint = o['ciba-notification-endpoint'] as string | undefined;
      const strictErrors = strictErrorsOf(o);
      const refreshTokens = refreshTokensOf(o);
      const body = {
        name: str(o, 'name'),
        redirectUris: o['redirect-uri'] as string[],
        public: o.public === true,
        ...(mode || endpoint || strictErrors !== undefined
          ? {
              ciba: {
                mode: mode ?? 'poll',
                ...(endpoint ? { notificationEndpoint: endpoint } : {}),
                ...(strictErrors !== undefined ? { strictErrors } : {}),
              },
            }
          : {}),
        ...(refreshTokens ? { refreshTokens } : {}),
      };
      const app = await call<App>(
        'POST',
        `/api/v1/admin/tenants/${path(str(o, 'tenant'))}/applications`,
        body,
      );
      const json: Record<string, unknown> = { appId: app.appId, clientId: app.clientId };
      if (app.clientSecret) json.clientSecret = app.clientSecret;
      const text = [
        `Created application "${app.name}"`,
        `  appId:        ${app.appId}`,
        `  clientId:     ${app.clientId}`,
      ];
      text.push(
        app.clientSecret
          ? `  clientSecret: ${app.clientSecret}  (shown only this once: store it now)`
          : '  public client: no secret, use PKCE (S256)',
      );
      return { json, text };
    },
  },
  'app list': {
    usage: 'app list --tenant TENANT_ID',
    options: ['tenant'],
    required: ['tenant'],
    async run(call, o) {
      const { applications } = await call<{ applications: App[] }>(
        'GET',
        `/api/v1/admin/tenants/${path(str(o, 'tenant'))}/applications`,
      );
      const text = applications.length
        ? applications.map(
            (a) =>
              `${a.name}  ${a.appId}  clientId=${a.clientId}${a.public ? '  (public)' : ''}  ${a.redirectUris.join(' ')}`,
          )
        : ['No applications.'];
      return { json: { applications }, text };
    },
  },
  'app refresh-tokens': {
    usage:
      'app refresh-tokens --tenant TENANT_ID --app APP_ID --refresh-tokens on|off [--refresh-absolute-lifetime S] [--refresh-idle-lifetime S]',
    options: ['tenant', 'app', ...REFRESH_OPTIONS],
    required: ['tenant', 'app', 'refresh-tokens'],
    async run(call, o) {
      const refreshTokens = refreshTokensOf(o)!;
      const app = await call<App & { refreshTokens?: Record<string, unknown> }>(
        'PATCH',
        `/api/v1/admin/tenants/${path(str(o, 'tenant'), 'applications', str(o, 'app'))}`,
        { refreshTokens: refreshTokens.enabled ? refreshTokens : null },
      );
      const settings = app.refreshTokens as
        | { enabled: boolean; absoluteLifetimeS: number; idleLifetimeS: number }
        | undefined;
      return {
        json: { appId: app.appId, refreshTokens: settings ?? { enabled: false } },
        text: settings?.enabled
          ? [
              `Refresh tokens on for application "${app.name}" (${app.appId})`,
              `  absolute lifetime: ${settings.absoluteLifetimeS} s, idle lifetime: ${settings.idleLifetimeS} s`,
            ]
          : [`Refresh tokens off for application "${app.name}" (${app.appId})`],
      };
    },
  },
  'app remove': {
    danger:
      'removes the application for good: sign-in through it stops at once and its secret and settings are gone',
    usage: 'app remove --tenant TENANT_ID --app APP_ID',
    options: ['tenant', 'app'],
    required: ['tenant', 'app'],
    async run(call, o) {
      await call('DELETE', `/api/v1/admin/tenants/${path(str(o, 'tenant'), 'applications', str(o, 'app'))}`);
      return {
        json: { status: 'success', appId: str(o, 'app') },
        text: [`Removed application ${str(o, 'app')}`],
      };
    },
  },
  'credentials create': {
    usage: 'credentials create --tenant TENANT_ID',
    options: ['tenant'],
    required: ['tenant'],
    async run(call, o) {
      const c = await call<Credentials>(
        'POST',
        `/api/v1/admin/tenants/${path(str(o, 'tenant'))}/credentials`,
        {},
      );
      return {
        json: { credentialsId: c.credentialsId, apiSecret: c.apiSecret },
        text: [
          'Created API credentials',
          `  credentialsId: ${c.credentialsId}`,
          `  apiSecret:     ${c.apiSecret}  (shown only this once: store it now)`,
        ],
      };
    },
  },
  'credentials revoke': {
    danger: 'revokes the API credentials: they stop working at once, with every token made with them',
    usage: 'credentials revoke --tenant TENANT_ID --credentials CREDENTIALS_ID',
    options: ['tenant', 'credentials'],
    required: ['tenant', 'credentials'],
    async run(call, o) {
      const c = await call<Credentials>(
        'DELETE',
        `/api/v1/admin/tenants/${path(str(o, 'tenant'))}/credentials/${path(str(o, 'credentials'))}`,
      );
      return {
        json: { credentialsId: c.credentialsId, revokedAt: c.revokedAt },
        text: [`Revoked API credentials ${c.credentialsId}`],
      };
    },
  },
  'tenant block-countries': {
    usage: 'tenant block-countries --tenant TENANT_ID --country CC [--country CC ...]',
    options: ['tenant', 'country'],
    required: ['tenant', 'country'],
    async run(call, o) {
      const rule = await call<{ tenantId: string; blockedCountries: string[] }>(
        'PUT',
        `/api/v1/admin/tenants/${path(str(o, 'tenant'))}/risk-rules/blocked-countries`,
        { countries: o.country as string[] },
      );
      return {
        json: rule,
        text: [`Sign-ins from ${rule.blockedCountries.join(', ')} are refused for tenant ${rule.tenantId}`],
      };
    },
  },
  'tenant unblock-countries': {
    usage: 'tenant unblock-countries --tenant TENANT_ID',
    options: ['tenant'],
    required: ['tenant'],
    async run(call, o) {
      const rule = await call<{ tenantId: string; blockedCountries: string[] }>(
        'DELETE',
        `/api/v1/admin/tenants/${path(str(o, 'tenant'))}/risk-rules/blocked-countries`,
      );
      return { json: rule, text: [`No country is blocked for tenant ${rule.tenantId}`] };
    },
  },
  'keys rotate': {
    usage: 'keys rotate',
    options: [],
    required: [],
    async run(call) {
      const k = await call<{ signingKid: string; encryptionKid: string; activatesAt: number }>(
        'POST',
        '/api/v1/admin/keys/rotate',
      );
      return {
        json: { signingKid: k.signingKid, encryptionKid: k.encryptionKid, activatesAt: k.activatesAt },
        text: [
          'Rotated keys (published now, active from the time below)',
          `  signing kid:    ${k.signingKid}`,
          `  encryption kid: ${k.encryptionKid}`,
          `  active from:    ${iso(k.activatesAt)}`,
        ],
      };
    },
  },
  ...logoutCommands,
  ...signingCommands,
  ...dpopCommands,
  ...profileCommands,
  ...mtlsCommands,
  ...interactiveCommands,
  ...clientTypeCommands,
  ...cibaCommands,
  ...brandingCommands,
  ...adminCommands,
  ...invitationCommands,
  ...logsCommands,
  ...attemptsCommands,
  'user invite': {
    usage: 'user invite --tenant TENANT_ID --app APP_ID --email EMAIL [--alias ALIAS]',
    options: ['tenant', 'app', 'email', 'alias'],
    required: ['tenant', 'app', 'email'],
    async run(call, o) {
      const alias = o.alias as string | undefined;
      const result = await call<Activation>(
        'POST',
        `/api/v1/admin/tenants/${path(str(o, 'tenant'), 'applications', str(o, 'app'))}/invitations`,
        {
          userEmail: str(o, 'email'),
          scopes: [],
          verifications: ['ts.svc.iac.email'],
          alias: alias ? { type: 'alias', value: alias } : { type: 'none' },
        },
      );
      const [channel] = result.activationResult.channelsResult;
      const sent = channel?.status === 'sent';
      return {
        json: result,
        text: [
          sent
            ? `Sent a registration link to ${channel?.target} (single use, expires in 30 minutes unless the app sets registrationLinkExpiresIn)`
            : `The registration link to ${channel?.target ?? str(o, 'email')} could not be sent (${channel?.status ?? 'no channel'})`,
        ],
      };
    },
  },
  ...personAccessCommands,
  ...peopleCommands,
};
