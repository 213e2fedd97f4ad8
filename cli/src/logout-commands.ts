import { CliError } from './admin-client';
import type { Command, Options } from './command';

const str = (o: Options, name: string) => o[name] as string;

type LogoutSettings = {
  appId: string;
  postLogoutRedirectUris?: string[];
  backchannelLogoutUri?: string;
  backchannelLogoutSessionRequired?: boolean;
};

/**
 * The PATCH body of `app logout`: only what was given changes. `--post-logout-redirect-uri none` removes every
 * post-logout redirect URI, `--backchannel-logout-uri none` turns back-channel logout off.
 */
export function logoutSettingsOf(o: Options): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const uris = o['post-logout-redirect-uri'] as string[] | undefined;
  if (uris !== undefined) body.postLogoutRedirectUris = uris.length === 1 && uris[0] === 'none' ? [] : uris;
  const backchannel = o['backchannel-logout-uri'] as string | undefined;
  if (backchannel !== undefined) body.backchannelLogoutUri = backchannel === 'none' ? null : backchannel;
  const session = o['backchannel-session-required'] as string | undefined;
  if (session !== undefined) {
    if (session !== 'on' && session !== 'off')
      throw new CliError('--backchannel-session-required must be on or off', 2);
    body.backchannelLogoutSessionRequired = session === 'on';
  }
  if (!Object.keys(body).length) {
    throw new CliError(
      'give --post-logout-redirect-uri, --backchannel-logout-uri or --backchannel-session-required',
      2,
    );
  }
  return body;
}

/**
 * `app logout`: an application's logout settings (RP-Initiated Logout's post-logout redirect URIs, Back-Channel
 * Logout's endpoint and whether it requires sid), through PATCH on the application like the console.
 */
export const logoutCommands: Record<string, Command> = {
  'app logout': {
    usage:
      'app logout --tenant TENANT_ID --app APP_ID [--post-logout-redirect-uri URI ... | none] [--backchannel-logout-uri URL|none] [--backchannel-session-required on|off]',
    options: [
      'tenant',
      'app',
      'post-logout-redirect-uri',
      'backchannel-logout-uri',
      'backchannel-session-required',
    ],
    required: ['tenant', 'app'],
    async run(call, o) {
      const path = `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant'))}/applications/${encodeURIComponent(str(o, 'app'))}`;
      const app = await call<LogoutSettings>('PATCH', path, logoutSettingsOf(o));
      const json = {
        appId: app.appId,
        postLogoutRedirectUris: app.postLogoutRedirectUris ?? [],
        backchannelLogoutUri: app.backchannelLogoutUri ?? null,
        backchannelLogoutSessionRequired: app.backchannelLogoutSessionRequired ?? false,
      };
      return {
        json,
        text: [
          `Logout settings of application ${app.appId}`,
          `  post-logout redirect URIs: ${json.postLogoutRedirectUris.join(' ') || '(none)'}`,
          `  back-channel logout URI:   ${json.backchannelLogoutUri ?? '(none)'}${json.backchannelLogoutSessionRequired ? ' (sid required)' : ''}`,
        ],
      };
    },
  },
};
