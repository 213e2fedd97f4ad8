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
  const body: Record<string, unknown> = {};
  const method = o.method as string | undefined;
  if (method !== undefined) {
    if (method === 'secret') {
      Object.assign(body, {
        tokenEndpointAuthMethod: null,
        tlsClientAuthSubjectDn: null,
        jwks: null,
        jwksUri: null,
      });
    } else if ((MTLS_METHODS as readonly string[]).includes(method)) {
      body.tokenEndpointAuthMethod = method;
    } else {
      throw new CliError(`--method must be ${MTLS_METHODS.join(', ')} or secret`, 2);
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
  if (!Object.keys(body).length)
    throw new CliError('give --method, --subject-dn, --jwks-file, --jwks-uri or --bound-tokens', 2);
  return body;
}

/** `app mtls`: an application's mutual-TLS client authentication and certificate-bound tokens (docs/fapi.md). */
export const mtlsCommands: Record<string, Command> = {
  'app mtls': {
    usage:
      'app mtls --tenant TENANT_ID --app APP_ID [--method tls_client_auth|self_signed_tls_client_auth|secret] [--subject-dn DN|none] [--jwks-file FILE] [--jwks-uri URL|none] [--bound-tokens on|off]',
    options: ['tenant', 'app', 'method', 'subject-dn', 'jwks-file', 'jwks-uri', 'bound-tokens'],
    required: ['tenant', 'app'],
    async run(call, o) {
      const path = `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant'))}/applications/${encodeURIComponent(str(o, 'app'))}`;
      const app = await call<MtlsSettings>('PATCH', path, mtlsSettingsOf(o));
      const json = {
        appId: app.appId,
        tokenEndpointAuthMethod: app.tokenEndpointAuthMethod ?? 'client_secret_basic',
        tlsClientAuthSubjectDn: app.tlsClientAuthSubjectDn ?? null,
        keys: app.jwksUri ?? (app.jwks ? 'jwks (by value)' : null),
        tlsClientCertificateBoundAccessTokens: app.tlsClientCertificateBoundAccessTokens ?? false,
      };
      return {
        json,
        text: [
          `Client authentication of application ${app.appId}`,
          `  method:       ${json.tokenEndpointAuthMethod}`,
          `  subject DN:   ${json.tlsClientAuthSubjectDn ?? '(none)'}`,
          `  keys:         ${json.keys ?? '(none)'}`,
          `  bound tokens: ${json.tlsClientCertificateBoundAccessTokens ? 'on (cnf.x5t#S256)' : 'off'}`,
        ],
      };
    },
  },
};
