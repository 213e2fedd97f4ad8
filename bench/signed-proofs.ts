import { randomUUID } from 'node:crypto';
import { type CryptoKey, type JWK, type KeyObject, SignJWT } from 'jose';

type PrivateKey = CryptoKey | KeyObject;

/** What the DPoP and private_key_jwt benches sign with: the proof's key and the client's assertion key. */
export interface ProofSigners {
  /** DPoP: the key pair, its public JWK (in the proof's header) and the endpoint the proofs are for. */
  dpop: { privateKey: PrivateKey; jwk: JWK; htu: string };
  /** private_key_jwt: the client's private key, its kid, the client id and the audience (the issuer). */
  assertion: { privateKey: PrivateKey; kid: string; clientId: string; audience: string };
}

/**
 * `count` DPoP proofs (POST to `htu`) or client assertions, all ES256 and signed now: iat inside the 60 s window,
 * an assertion's exp 120 s ahead, a fresh jti each (the servers refuse a replay).
 */
export async function signedProofs(
  signers: ProofSigners,
  kind: 'dpop' | 'assertion',
  count: number,
): Promise<string[]> {
  const iat = Math.floor(Date.now() / 1000);
  const { dpop, assertion } = signers;
  const out: string[] = [];
  for (let i = 0; i < count; i++)
    out.push(
      kind === 'dpop'
        ? await new SignJWT({ jti: randomUUID(), htm: 'POST', htu: dpop.htu, iat })
            .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: dpop.jwk })
            .sign(dpop.privateKey)
        : await new SignJWT({ jti: randomUUID() })
            .setProtectedHeader({ alg: 'ES256', kid: assertion.kid })
            .setIssuer(assertion.clientId)
            .setSubject(assertion.clientId)
            .setAudience(assertion.audience)
            .setIssuedAt(iat)
            .setExpirationTime(iat + 120)
            .sign(assertion.privateKey),
    );
  return out;
}
