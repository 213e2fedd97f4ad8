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
  'tokenEndpointAuthMethod' | 'jwks' | 'jwksUri' | 'requestObjectSigningAlg'
> & { public: boolean };

/**
 * The rules across fields of private_key_jwt, checked on the application as it will be saved: the method needs
 * a confidential client and exactly one source of keys (jwks or jwksUri); so does a required request object
 * signing alg (JAR), whose keys also verify request objects. Keys used by neither are refused, so a
 * registration never looks like it does what it does not.
 */
export function clientKeysProblem(app: KeySettings): Record<string, string> | undefined {
  const hasJwks = Boolean(app.jwks);
  const hasUri = Boolean(app.jwksUri);
  if (hasJwks && hasUri) return { jwksUri: 'give jwks or jwksUri, not both' };
  if (app.requestObjectSigningAlg && !hasJwks && !hasUri)
    return { requestObjectSigningAlg: 'needs the keys that sign request objects: jwks or jwksUri' };
  if (app.tokenEndpointAuthMethod !== 'private_key_jwt') {
    if (app.requestObjectSigningAlg) return undefined;
    const used = 'is used only with tokenEndpointAuthMethod private_key_jwt or a requestObjectSigningAlg';
    if (hasJwks) return { jwks: used };
    if (hasUri) return { jwksUri: used };
    return undefined;
  }
  if (app.public) return { tokenEndpointAuthMethod: 'a public client cannot use private_key_jwt' };
  if (!hasJwks && !hasUri) return { jwks: 'private_key_jwt needs jwks or jwksUri' };
  return undefined;
}
