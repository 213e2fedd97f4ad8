import { CliError } from './admin-client';
import type { Command, Options } from './command';

const str = (o: Options, name: string) => o[name] as string;
const REQUEST_OBJECT_ALGS = ['RS256', 'PS256', 'ES256'];

type SigningSettings = { appId: string; requestObjectSigningAlg?: string };

/**
 * The PATCH body of `app signing`: `--request-object-signing-alg RS256|PS256|ES256` makes /authorize and
 * /par take only request objects signed with that alg by the app's keys (JAR); `none` lifts the rule.
 */
export function signingSettingsOf(o: Options): Record<string, unknown> {
  const alg = o['request-object-signing-alg'] as string | undefined;
  if (alg === undefined) throw new CliError('give --request-object-signing-alg', 2);
  if (alg !== 'none' && !REQUEST_OBJECT_ALGS.includes(alg))
    throw new CliError(`--request-object-signing-alg must be ${REQUEST_OBJECT_ALGS.join(', ')} or none`, 2);
  return { requestObjectSigningAlg: alg === 'none' ? null : alg };
}

/** `app signing`: the algorithms an application's signed messages must use, through PATCH like the console. */
export const signingCommands: Record<string, Command> = {
  'app signing': {
    usage: 'app signing --tenant TENANT_ID --app APP_ID --request-object-signing-alg RS256|PS256|ES256|none',
    example: 'app signing --tenant Acme --app Shop --request-object-signing-alg ES256',
    options: ['tenant', 'app', 'request-object-signing-alg'],
    required: ['tenant', 'app'],
    async run(call, o) {
      const path = `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant'))}/applications/${encodeURIComponent(str(o, 'app'))}`;
      const app = await call<SigningSettings>('PATCH', path, signingSettingsOf(o));
      const json = { appId: app.appId, requestObjectSigningAlg: app.requestObjectSigningAlg ?? null };
      return {
        json,
        text: [
          `Signing settings of application ${app.appId}`,
          `  request objects: ${json.requestObjectSigningAlg ? `signed with ${json.requestObjectSigningAlg} only` : 'signed, unsigned or encrypted'}`,
        ],
      };
    },
  },
};
