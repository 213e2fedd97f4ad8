/**
 * CPU per verification in this process, without HTTP: a DPoP proof (dpopVerifier: the checks, the signature,
 * the jti set in a Map standing for the KV) and a private_key_jwt client assertion (clientAssertionVerifier,
 * the client's ES256 key registered by value), each a fresh one (new jti), beside one ES256 signature
 * verification by node:crypto and by jose (the anchor of bench/token-dpop.bench.ts). Interleaved rounds; the
 * medians are printed.
 *
 *   node --import tsx bench/proof-verifiers.ts   (BENCH_ROUNDS=5 BENCH_COUNT=2000)
 */
import { createPublicKey, verify } from 'node:crypto';
import { compactVerify, exportJWK, generateKeyPair } from 'jose';
import { ClientJwks, clientAssertionVerifier, dpopVerifier } from '../libs/oauth/src/index';
import { type ProofSigners, signedProofs } from './signed-proofs';
import { median } from './support';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const count = Number(process.env.BENCH_COUNT ?? 2000);
const issuer = 'https://auth.bench.test';
const htu = `${issuer}/token`;
const clock = { now: () => Date.now() };
const seen = new Set<string>();
const replays = {
  async set(key: string, _value: string, opts: { onlyIfAbsent?: boolean }) {
    if (opts.onlyIfAbsent && seen.has(key)) return false;
    seen.add(key);
    return true;
  },
};

const dpopKey = await generateKeyPair('ES256');
const dpopJwk = await exportJWK(dpopKey.publicKey);
const clientKey = await generateKeyPair('ES256', { extractable: true });
const clientJwk = { ...(await exportJWK(clientKey.publicKey)), kid: 'k1', alg: 'ES256' };
const client = { clientId: 'app-1', jwks: JSON.stringify({ keys: [clientJwk] }), jwksUri: '' };
const proofs = dpopVerifier({ clock, replays });
const assertions = clientAssertionVerifier({
  clock,
  jwks: new ClientJwks(clock),
  replays,
  audiences: [issuer],
});

const signers: ProofSigners = {
  dpop: { privateKey: dpopKey.privateKey, jwk: dpopJwk, htu },
  assertion: { privateKey: clientKey.privateKey, kid: 'k1', clientId: client.clientId, audience: issuer },
};
const signed = (kind: 'dpop' | 'assertion', n: number) => signedProofs(signers, kind, n);

/** µs of CPU per call, over `items`. */
async function per<T>(items: T[], run: (item: T) => unknown): Promise<number> {
  const start = process.cpuUsage();
  for (const item of items) await run(item);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / items.length;
}

const jws = (await signed('assertion', 1))[0]!;
const [header, payload, signature] = jws.split('.') as [string, string, string];
const nodeKey = {
  key: createPublicKey({ key: clientJwk, format: 'jwk' }),
  dsaEncoding: 'ieee-p1363' as const,
};
const same = Array.from({ length: count }, () => jws);
const rows: Record<string, number[]> = {
  'ES256, node:crypto verify': [],
  'ES256, jose compactVerify': [],
  'DPoP proof (dpopVerifier)': [],
  'client assertion (clientAssertionVerifier)': [],
};
// Warm-up (JIT, the key caches), then measured rounds.
for (let round = 0; round <= rounds; round++) {
  const [dpop, assertion] = [await signed('dpop', count), await signed('assertion', count)];
  const figures = [
    await per(same, () =>
      verify('sha256', Buffer.from(`${header}.${payload}`), nodeKey, Buffer.from(signature, 'base64url')),
    ),
    await per(same, (j) => compactVerify(j, clientKey.publicKey)),
    await per(dpop, (p) => proofs.verify({ header: p, method: 'POST', url: htu })),
    await per(assertion, (a) => assertions.verify(client, a)),
  ];
  if (round > 0) Object.values(rows).forEach((values, i) => values.push(figures[i]!));
}
const anchor = median([...rows['ES256, node:crypto verify']!]);
console.log(`µs CPU per verification, median of ${rounds} rounds of ${count}:`);
for (const [name, values] of Object.entries(rows)) {
  const m = median(values);
  console.log(
    `  ${name.padEnd(44)} ${m.toFixed(0).padStart(5)} µs  = ${(m / anchor).toFixed(2)} node:crypto ES256 verifications`,
  );
}
