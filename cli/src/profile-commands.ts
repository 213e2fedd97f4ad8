import { CliError } from './admin-client';
import type { Command, Options } from './command';

const str = (o: Options, name: string) => o[name] as string;

/**
 * `app profile`: the security profile an application is held to (securityProfile), through PATCH on the
 * application like the console: `fapi2` (the FAPI 2.0 Security Profile) or `none`. The admin API refuses
 * fapi2 for an app that does not authenticate with private_key_jwt or mutual TLS, or has http redirect URIs.
 */
export const profileCommands: Record<string, Command> = {
  'app profile': {
    usage: 'app profile --tenant TENANT_ID --app APP_ID --security-profile fapi2|none',
    options: ['tenant', 'app', 'security-profile'],
    required: ['tenant', 'app', 'security-profile'],
    async run(call, o) {
      const value = str(o, 'security-profile');
      if (value !== 'fapi2' && value !== 'none')
        throw new CliError('--security-profile must be fapi2 or none', 2);
      const path = `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant'))}/applications/${encodeURIComponent(str(o, 'app'))}`;
      const app = await call<{ appId: string; securityProfile?: string }>('PATCH', path, {
        securityProfile: value === 'fapi2' ? 'fapi2' : null,
      });
      const json = { appId: app.appId, securityProfile: app.securityProfile ?? null };
      return {
        json,
        text: [
          json.securityProfile === 'fapi2'
            ? `Application ${app.appId} now follows the FAPI 2.0 profile: PAR, PKCE S256 and sender-constrained tokens required`
            : `Application ${app.appId} follows no security profile`,
        ],
      };
    },
  },
};
