import { CliError } from './admin-client';
import type { Command, Options } from './command';

const str = (o: Options, name: string) => o[name] as string;
const ALGS = ['RS256', 'PS256', 'ES256'];

type SigningSettings = {
  appId: string;
  requestObjectSigningAlg?: string;
  idTokenSignedResponseAlg?: string;
  backchannelAuthenticationRequestSigningAlg?: string;
};

/**
 * The PATCH body of `app signing`, one or both of:
 * - `--request-object-signing-alg RS256|PS256|ES256` makes /authorize and /par take only request objects
 *   signed with that alg by the app's keys (JAR); `none` lifts the rule;
 * - `--id-token-signed-response-alg RS256|PS256|ES256` signs the app's ID tokens (and back-channel logout
 *   tokens) with that alg's key from /jwks; `default` goes back to RS256;
 * - `--ciba-request-signing-alg RS256|PS256|ES256` makes /authorize_ciba take only signed authentication
 *   requests (FAPI-CIBA) signed with that alg by the app's keys; `none` takes plain requests again.
 */
export function signingSettingsOf(o: Options): Record<string, unknown> {
  const requestAlg = o['request-object-signing-alg'] as string | undefined;
  const idTokenAlg = o['id-token-signed-response-alg'] as string | undefined;
  const cibaAlg = o['ciba-request-signing-alg'] as string | undefined;
  if (requestAlg === undefined && idTokenAlg === undefined && cibaAlg === undefined)
    throw new CliError(
      'give --request-object-signing-alg, --id-token-signed-response-alg or --ciba-request-signing-alg',
      2,
    );
  const body: Record<string, unknown> = {};
  if (requestAlg !== undefined) {
    if (requestAlg !== 'none' && !ALGS.includes(requestAlg))
      throw new CliError(`--request-object-signing-alg must be ${ALGS.join(', ')} or none`, 2);
    body.requestObjectSigningAlg = requestAlg === 'none' ? null : requestAlg;
  }
  if (idTokenAlg !== undefined) {
    if (idTokenAlg !== 'default' && !ALGS.includes(idTokenAlg))
      throw new CliError(`--id-token-signed-response-alg must be ${ALGS.join(', ')} or default`, 2);
    body.idTokenSignedResponseAlg = idTokenAlg === 'default' ? null : idTokenAlg;
  }
  if (cibaAlg !== undefined) {
    if (cibaAlg !== 'none' && !ALGS.includes(cibaAlg))
      throw new CliError(`--ciba-request-signing-alg must be ${ALGS.join(', ')} or none`, 2);
    body.backchannelAuthenticationRequestSigningAlg = cibaAlg === 'none' ? null : cibaAlg;
  }
  return body;
}

/** `app signing`: the algorithms of an application's signed messages, through PATCH like the console. */
export const signingCommands: Record<string, Command> = {
  'app signing': {
    usage:
      'app signing --tenant TENANT_ID --app APP_ID [--request-object-signing-alg RS256|PS256|ES256|none] [--id-token-signed-response-alg RS256|PS256|ES256|default] [--ciba-request-signing-alg RS256|PS256|ES256|none]',
    example: 'app signing --tenant Acme --app Shop --id-token-signed-response-alg ES256',
    options: [
      'tenant',
      'app',
      'request-object-signing-alg',
      'id-token-signed-response-alg',
      'ciba-request-signing-alg',
    ],
    required: ['tenant', 'app'],
    async run(call, o) {
      const path = `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant'))}/applications/${encodeURIComponent(str(o, 'app'))}`;
      const app = await call<SigningSettings>('PATCH', path, signingSettingsOf(o));
      const json = {
        appId: app.appId,
        requestObjectSigningAlg: app.requestObjectSigningAlg ?? null,
        idTokenSignedResponseAlg: app.idTokenSignedResponseAlg ?? 'RS256',
        backchannelAuthenticationRequestSigningAlg: app.backchannelAuthenticationRequestSigningAlg ?? null,
      };
      return {
        json,
        text: [
          `Signing settings of application ${app.appId}`,
          `  request objects: ${json.requestObjectSigningAlg ? `signed with ${json.requestObjectSigningAlg} only` : 'signed, unsigned or encrypted'}`,
          `  ID tokens: ${json.idTokenSignedResponseAlg}${app.idTokenSignedResponseAlg ? '' : ' (default)'}`,
          `  CIBA requests: ${json.backchannelAuthenticationRequestSigningAlg ? `signed with ${json.backchannelAuthenticationRequestSigningAlg} only` : 'signed or plain'}`,
        ],
      };
    },
  },
};
