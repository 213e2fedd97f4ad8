import { CliError } from './admin-client';
import type { Command, Options } from './command';

const str = (o: Options, name: string) => o[name] as string;
const ID_TOKEN_ALGS = ['RS256', 'PS256', 'ES256'];

type SigningSettings = { appId: string; idTokenSignedResponseAlg?: string };

/**
 * The PATCH body of `app signing`: `--id-token-signed-response-alg RS256|PS256|ES256` signs the app's ID
 * tokens (and back-channel logout tokens) with that alg's key from /jwks; `default` goes back to RS256.
 */
export function signingSettingsOf(o: Options): Record<string, unknown> {
  const alg = o['id-token-signed-response-alg'] as string | undefined;
  if (alg === undefined) throw new CliError('give --id-token-signed-response-alg', 2);
  if (alg !== 'default' && !ID_TOKEN_ALGS.includes(alg))
    throw new CliError(`--id-token-signed-response-alg must be ${ID_TOKEN_ALGS.join(', ')} or default`, 2);
  return { idTokenSignedResponseAlg: alg === 'default' ? null : alg };
}

/** `app signing`: the algorithms of an application's signed messages, through PATCH like the console. */
export const signingCommands: Record<string, Command> = {
  'app signing': {
    usage:
      'app signing --tenant TENANT_ID --app APP_ID --id-token-signed-response-alg RS256|PS256|ES256|default',
    example: 'app signing --tenant Acme --app Shop --id-token-signed-response-alg ES256',
    options: ['tenant', 'app', 'id-token-signed-response-alg'],
    required: ['tenant', 'app'],
    async run(call, o) {
      const path = `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant'))}/applications/${encodeURIComponent(str(o, 'app'))}`;
      const app = await call<SigningSettings>('PATCH', path, signingSettingsOf(o));
      const json = { appId: app.appId, idTokenSignedResponseAlg: app.idTokenSignedResponseAlg ?? 'RS256' };
      return {
        json,
        text: [
          `Signing settings of application ${app.appId}`,
          `  ID tokens: ${json.idTokenSignedResponseAlg}${app.idTokenSignedResponseAlg ? '' : ' (default)'}`,
        ],
      };
    },
  },
};
