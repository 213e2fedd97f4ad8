import { normalizeDn } from '@sesame/oauth';
import { z } from 'zod';
import type { Application } from '../../directory/model';

/** Members of a private or symmetric key: a registered JWK Set carries public keys only. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/** One public RSA or EC key (RFC 7517); other members (kid, use, alg, x5c...) are kept as given. */
const publicJwk = z
  .object({ kty: z.enum(['RSA', 'EC']) })
  .passthrough()
  .superRefine((jwk, ctx) => {
    const found = PRIVATE_MEMBERS.filter((m) => m in jwk);
    if (found.length)
      ctx.addIssue({ code: 'custom', message: `must be a public key (has ${found.join(', ')})` });
  });

/** A JWK Set registered by value: 1 to 20 public keys, at most 32 KB as JSON. */
export const jwkSet = z
  .object({ keys: z.array(publicJwk).min(1).max(20) })
  .strict()
  .refine((set) => JSON.stringify(set).length <= 32 * 1024, { message: 'must be at most 32 KB as JSON' });

type KeySettings = Pick<
  Application,
  | 'tokenEndpointAuthMethod'
  | 'jwks'
  | 'jwksUri'
  | 'requestObjectSigningAlg'
  | 'tlsClientAuthSubjectDn'
  | 'backchannelAuthenticationRequestSigningAlg'
> & {
  public: boolean;
};

/** The methods that read the app's keys: private_key_jwt signs with them, self_signed_tls_client_auth presents one. */
const KEYED_METHODS = new Set(['private_key_jwt', 'self_signed_tls_client_auth']);

/**
 * The rules across fields of private_key_jwt, mutual TLS (RFC 8705) and JAR, checked on the application as it
 * will be saved: these methods need a confidential client; a keyed method exactly one source of keys (jwks or
 * jwksUri), and so does a required request object or CIBA request signing alg (whose keys verify them);
 * tls_client_auth a subject DN that parses. Keys or a DN used by nothing are refused too, so a registration
 * never looks like it does what it does not.
 */
export function clientKeysProblem(app: KeySettings): Record<string, string> | undefined {
  const method = app.tokenEndpointAuthMethod;
  const hasJwks = Boolean(app.jwks);
  const hasUri = Boolean(app.jwksUri);
  if (hasJwks && hasUri) return { jwksUri: 'give jwks or jwksUri, not both' };
  if (app.requestObjectSigningAlg && !hasJwks && !hasUri)
    return { requestObjectSigningAlg: 'needs the keys that sign request objects: jwks or jwksUri' };
  const signedCiba = app.backchannelAuthenticationRequestSigningAlg;
  if (signedCiba && !hasJwks && !hasUri)
    return {
      backchannelAuthenticationRequestSigningAlg:
        'needs the keys that sign authentication requests: jwks or jwksUri',
    };
  if (app.tlsClientAuthSubjectDn && method !== 'tls_client_auth')
    return { tlsClientAuthSubjectDn: 'is used only with tokenEndpointAuthMethod tls_client_auth' };
  if (!app.requestObjectSigningAlg && !signedCiba && (!method || !KEYED_METHODS.has(method))) {
    const only =
      'is used only with tokenEndpointAuthMethod private_key_jwt or self_signed_tls_client_auth, or a requestObjectSigningAlg';
    if (hasJwks) return { jwks: only };
    if (hasUri) return { jwksUri: only };
  }
  if (!method || method === 'client_secret_basic' || method === 'client_secret_post') return undefined;
  if (app.public) return { tokenEndpointAuthMethod: `a public client cannot use ${method}` };
  if (method === 'tls_client_auth') {
    if (!app.tlsClientAuthSubjectDn)
      return { tlsClientAuthSubjectDn: 'tls_client_auth needs tlsClientAuthSubjectDn' };
    if (!normalizeDn(app.tlsClientAuthSubjectDn))
      return { tlsClientAuthSubjectDn: 'must be a distinguished name such as CN=rp,O=Bank,C=DE' };
    return undefined;
  }
  if (!hasJwks && !hasUri) return { jwks: `${method} needs jwks or jwksUri` };
  return undefined;
}
