import { readFileSync } from 'node:fs';
import { CliError } from './admin-client';
import type { Command, Options } from './command';

const str = (o: Options, name: string) => o[name] as string;
const MTLS_METHODS = ['tls_client_auth', 'self_signed_tls_client_auth'] as const;

type MtlsSettings = {
  appId: string;
  tokenEndpointAuthMethod?: string;
  tlsClientAuthSubjectDn?: string;
  jwksUri?: string;
  jwks?: unknown;
  tlsClientCertificateBoundAccessTokens?: boolean;
  requirePushedAuthorizationRequests?: boolean;
};

/**
 * The PATCH body of `app mtls` (RFC 8705): `--method tls_client_auth --subject-dn DN`, or `--method
 * self_signed_tls_client_auth` with `--jwks-file FILE` (a JWK Set of public keys) or `--jwks-uri URL`;
 * `--method secret` goes back to the client secret (and clears the DN and keys); `--bound-tokens on|off`
 * certificate-binds the app's access tokens. Only what was given changes; mgmt checks the fields together.
 */
export function mtlsSettingsOf(
  o: Options,
  readFile: (path: string) => string = (p) => readFileSync(p, 'utf8'),
) {
  return settingsOf(o, MTLS_METHODS, readFile);
}

/**
 * The PATCH body of `app client-auth`: `--method` as given (the admin API judges it against the methods it
 * takes, @sesame/oauth's TOKEN_ENDPOINT_AUTH_METHODS, and says which; private_key_jwt with `--jwks-file` or
 * `--jwks-uri`, RFC 7523), the keys and DN as `app mtls` takes them, and `--require-par on|off` (RFC 9126).
 */
export function clientAuthSettingsOf(
  o: Options,
  readFile: (path: string) => string = (p) => readFileSync(p, 'utf8'),
) {
  return settingsOf(o, undefined, readFile);
}

/** `methods`: the methods taken (app mtls); undefined: any, for the admin API to judge (app client-auth). */
function settingsOf(o: Options, methods: readonly string[] | undefined, readFile: (path: string) => string) {
  const body: Record<string, unknown> = {};
  const method = o.method as string | undefined;
  if (method !== undefined) {
    if (method === 'secret' && methods === MTLS_METHODS) {
      Object.assign(body, {
        tokenEndpointAuthMethod: null,
        tlsClientAuthSubjectDn: null,
        jwks: null,
        jwksUri: null,
      });
    } else if (methods === undefined ? method !== '' : methods.includes(method)) {
      body.tokenEndpointAuthMethod = method;
    } else {
      throw new CliError(
        methods === undefined ? '--method needs a value' : `--method must be ${methods.join(', ')} or secret`,
        2,
      );
    }
  }
  const dn = o['subject-dn'] as string | undefined;
  if (dn !== undefined) body.tlsClientAuthSubjectDn = dn === 'none' ? null : dn;
  const jwksFile = o['jwks-file'] as string | undefined;
  if (jwksFile !== undefined) {
    try {
      body.jwks = JSON.parse(readFile(jwksFile));
    } catch (err) {
      throw new CliError(`--jwks-file ${jwksFile}: ${(err as Error).message}`, 2);
    }
  }
  const jwksUri = o['jwks-uri'] as string | undefined;
  if (jwksUri !== undefined) body.jwksUri = jwksUri === 'none' ? null : jwksUri;
  const bound = o['bound-tokens'] as string | undefined;
  if (bound !== undefined) {
    if (bound !== 'on' && bound !== 'off') throw new CliError('--bound-tokens must be on or off', 2);
    body.tlsClientCertificateBoundAccessTokens = bound === 'on';
  }
  const par = o['require-par'] as string | undefined;
  if (par !== undefined && methods !== MTLS_METHODS) {
    if (par !== 'on' && par !== 'off') throw new CliError('--require-par must be on or off', 2);
    body.requirePushedAuthorizationRequests = par === 'on';
  }
  if (!Object.keys(body).length)
    throw new CliError(
      methods === MTLS_METHODS
        ? 'give --method, --subject-dn, --jwks-file, --jwks-uri or --bound-tokens'
        : 'give --method, --subject-dn, --jwks-file, --jwks-uri, --bound-tokens or --require-par',
      2,
    );
  return body;
}

const appPath = (o: Options) =>
  `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant'))}/applications/${encodeURIComponent(str(o, 'app'))}`;

/** What `app mtls` and `app client-auth` print of the application after the PATCH. */
function clientAuthOutput(app: MtlsSettings, withPar: boolean) {
  const json: Record<string, unknown> = {
    appId: app.appId,
    tokenEndpointAuthMethod: app.tokenEndpointAuthMethod ?? 'client_secret_basic',
    tlsClientAuthSubjectDn: app.tlsClientAuthSubjectDn ?? null,
    keys: app.jwksUri ?? (app.jwks ? 'jwks (by value)' : null),
    tlsClientCertificateBoundAccessTokens: app.tlsClientCertificateBoundAccessTokens ?? false,
  };
  const text = [
    `Client authentication of application ${app.appId}`,
    `  method:       ${json.tokenEndpointAuthMethod}`,
    `  subject DN:   ${json.tlsClientAuthSubjectDn ?? '(none)'}`,
    `  keys:         ${json.keys ?? '(none)'}`,
    `  bound tokens: ${json.tlsClientCertificateBoundAccessTokens ? 'on (cnf.x5t#S256)' : 'off'}`,
  ];
  if (withPar) {
    json.requirePushedAuthorizationRequests = app.requirePushedAuthorizationRequests ?? false;
    text.push(`  require PAR:  ${json.requirePushedAuthorizationRequests ? 'on' : 'off'}`);
  }
  return { json, text };
}

/** `app mtls`: an application's mutual-TLS client authentication and certificate-bound tokens (docs/fapi.md). */
export const mtlsCommands: Record<string, Command> = {
  'app mtls': {
    usage:
      'app mtls --tenant TENANT_ID --app APP_ID [--method tls_client_auth|self_signed_tls_client_auth|secret] [--subject-dn DN|none] [--jwks-file FILE] [--jwks-uri URL|none] [--bound-tokens on|off]',
    options: ['tenant', 'app', 'method', 'subject-dn', 'jwks-file', 'jwks-uri', 'bound-tokens'],
    required: ['tenant', 'app'],
    async run(call, o) {
      return clientAuthOutput(await call<MtlsSettings>('PATCH', appPath(o), mtlsSettingsOf(o)), false);
    },
  },
  /** Every client authentication method (private_key_jwt too), the client's keys and PAR, as the Console sets them. */
  'app client-auth': {
    usage:
      'app client-auth --tenant TENANT_ID --app APP_ID [--method client_secret_basic|client_secret_post|private_key_jwt|tls_client_auth|self_signed_tls_client_auth|none] [--jwks-file FILE] [--jwks-uri URL|none] [--subject-dn DN|none] [--bound-tokens on|off] [--require-par on|off]',
    options: [
      'tenant',
      'app',
      'method',
      'subject-dn',
      'jwks-file',
      'jwks-uri',
      'bound-tokens',
      'require-par',
    ],
    required: ['tenant', 'app'],
    example:
      'app client-auth --tenant TENANT_ID --app APP_ID --method private_key_jwt --jwks-file rp-keys.json --require-par on',
    async run(call, o) {
      return clientAuthOutput(await call<MtlsSettings>('PATCH', appPath(o), clientAuthSettingsOf(o)), true);
    },
  },
};
