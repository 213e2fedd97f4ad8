import { CliError } from './admin-client';
import type { Command, Options } from './command';

const str = (o: Options, name: string) => o[name] as string;

/**
 * `app dpop`: whether an application must send a DPoP proof (RFC 9449) at /token, so that all its access
 * tokens are DPoP-bound (dpopBoundAccessTokens), through PATCH on the application like the console.
 */
export const dpopCommands: Record<string, Command> = {
  'app dpop': {
    usage: 'app dpop --tenant TENANT_ID --app APP_ID --require-dpop on|off',
    options: ['tenant', 'app', 'require-dpop'],
    required: ['tenant', 'app', 'require-dpop'],
    async run(call, o) {
      const value = str(o, 'require-dpop');
      if (value !== 'on' && value !== 'off') throw new CliError('--require-dpop must be on or off', 2);
      const path = `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant'))}/applications/${encodeURIComponent(str(o, 'app'))}`;
      const app = await call<{ appId: string; dpopBoundAccessTokens?: boolean }>('PATCH', path, {
        dpopBoundAccessTokens: value === 'on',
      });
      const json = { appId: app.appId, dpopBoundAccessTokens: app.dpopBoundAccessTokens ?? false };
      return {
        json,
        text: [
          json.dpopBoundAccessTokens
            ? `Application ${app.appId} now requires DPoP: /token refuses its requests without a DPoP proof`
            : `Application ${app.appId} no longer requires DPoP (a proof, when sent, still binds its tokens)`,
        ],
      };
    },
  },
};
