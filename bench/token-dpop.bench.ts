/**
 * What a DPoP proof (RFC 9449) and private_key_jwt (RFC 7523) cost, against token as a pod runs it
 * (bench/token.server.ts, in-memory KV) and its peers (bench/token.peers.ts), each in its own child process,
 * in interleaved rounds:
 *   - POST /token client_credentials with client_secret_post, without and with a DPoP header;
 *   - POST /revoke (an unknown token: 200) by an application with client_secret_post, and by one registered
 *     for private_key_jwt (jwks by value, ES256) with a client_assertion. API credentials, the only
 *     client_credentials clients, authenticate with their secret only, so private_key_jwt is measured where an
 *     application authenticates the same way as at /token (authenticate-client), on an endpoint that does
 *     nothing else.
 * Every DPoP proof and client assertion is one of its own (fresh jti; signed before the round, so the signing
 * is not counted). The figure is the CPU of token + peers per request, which other load on a shared machine
 * changes far less than req/s, and each difference against one ES256 signature verification measured in
 * this process (the anchor: each may cost at most one verification more than client_secret_post),
 * twice: node:crypto's verify (what the server calls for a proof) and jose's compactVerify.
 *
 *   node --import tsx bench/token-dpop.bench.ts   (BENCH_SECONDS=4 BENCH_CONNECTIONS=16 BENCH_ROUNDS=3)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SignJWT, compactVerify, exportJWK, generateKeyPair } from 'jose';
import { type ProofSigners, signedProofs } from './signed-proofs';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const here = import.meta.dirname;

/** CPU time (µs, user + system) of processes, from /proc (Linux). */
const cpuOf = (pids: number[]) =>
  pids.reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return sum + ((Number(fields[11]) + Number(fields[12])) / 100) * 1e6;
  }, 0);

async function serve<T>(script: string, args: string[]): Promise<T & { child: ChildProcess; pid: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, script), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { ...(JSON.parse(line) as T), child, pid: child.pid! };
}

interface Run {
  rps: number;
  cpuUs: number;
  failed: number;
}

/** Request i's headers (beside the form content type) and form body. */
type Requests = (i: number) => { headers?: Record<string, string>; body: string };

/** A closed loop of `connections` keep-alive POSTs to `path` for `seconds`. */
async function load(url: string, path: string, requests: Requests, pids: number[]): Promise<Run> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(path, url);
  const until = Date.now() + seconds * 1000;
  let sent = 0;
  let failed = 0;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const { headers, body } = requests(i);
      const req = request(target, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
      req.on('response', (res) => {
        if (res.statusCode !== 200) failed++;
        res.resume().on('end', resolve);
      });
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end(body);
    });
  const cpu = cpuOf(pids);
  const started = Date.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) await one(sent++);
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  return { rps: sent / elapsed, cpuUs: (cpuOf(pids) - cpu) / sent, failed };
}

/** µs of CPU per call of `run`, in this process. */
async function cpuPerCall(run: () => unknown): Promise<number> {
  for (let i = 0; i < 200; i++) await run();
  const n = 2000;
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

/** µs of one ES256 compact JWS verification in this process (the anchor): node:crypto's, then jose's. */
async function es256VerifyUs(): Promise<{ node: number; jose: number }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const jws = await new SignJWT({ a: 1 }).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
  const [header, payload, signature] = jws.split('.') as [string, string, string];
  const key = {
    key: createPublicKey({ key: await exportJWK(publicKey), format: 'jwk' }),
    dsaEncoding: 'ieee-p1363' as const,
  };
  const node = await cpuPerCall(() =>
    verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url')),
  );
  return { node, jose: await cpuPerCall(() => compactVerify(jws, publicKey)) };
}

const peers = await serve<{
  keysAddr: string;
  directoryAddr: string;
  demo: Record<string, string>;
  url: string;
  adminKey: string;
}>('token.peers.ts', []);
const token = await serve<{ url: string }>('token.server.ts', ['token', peers.keysAddr, peers.directoryAddr]);
const pids = [token.pid, peers.pid];
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const credentialsBody = form({
  grant_type: 'client_credentials',
  client_id: String(peers.demo.credentialsId),
  client_secret: String(peers.demo.apiSecret),
  scope: 'svc_admin_api',
});
/** An unknown token: /revoke answers 200 once the client is authenticated, and does nothing else. */
const revoked = 'x'.repeat(43);
const secretRevokeBody = form({
  token: revoked,
  client_id: String(peers.demo.clientId),
  client_secret: String(peers.demo.clientSecret),
});

// The issuer token.server.ts gives token (SESAME_AUTH_URL): proofs and assertions name it.
const issuer = 'https://auth.bench.test';
const htu = `${issuer}/token`;
const dpopKey = await generateKeyPair('ES256');
const dpopJwk = await exportJWK(dpopKey.publicKey);
const clientKey = await generateKeyPair('ES256');
const clientJwk = { ...(await exportJWK(clientKey.publicKey)), kid: 'bench-key-1', alg: 'ES256', use: 'sig' };
const registered = await fetch(`${peers.url}/api/v1/admin/tenants/${peers.demo.tenantId}/applications`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${peers.adminKey}` },
  body: JSON.stringify({
    name: 'Bench private_key_jwt app',
    redirectUris: ['https://rp.bench.test/callback'],
    tokenEndpointAuthMethod: 'private_key_jwt',
    jwks: { keys: [clientJwk] },
  }),
});
if (!registered.ok)
  throw new Error(`registering the private_key_jwt app: ${registered.status} ${await registered.text()}`);
const keyedClientId = ((await registered.json()) as { clientId: string }).clientId;

const signers: ProofSigners = {
  dpop: { privateKey: dpopKey.privateKey, jwk: dpopJwk, htu },
  assertion: {
    privateKey: clientKey.privateKey,
    kid: clientJwk.kid,
    clientId: keyedClientId,
    audience: issuer,
  },
};
const signed = (count: number, kind: 'dpop' | 'assertion') => signedProofs(signers, kind, count);
const assertionBody = (assertion: string) =>
  form({
    token: revoked,
    client_id: keyedClientId,
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: assertion,
  });
/** Request i takes signed item i; a round that outran its batch would measure refusals, so it stops. */
const from = (batch: string[]) => (i: number) => {
  const item = batch[i];
  if (item === undefined) throw new Error('ran out of signed proofs or assertions');
  return item;
};

const anchor = await es256VerifyUs();
console.log(
  `token DPoP and private_key_jwt benchmark: ${connections} connections, ${seconds} s a row, ${rounds} rounds`,
);
console.log(
  `  one ES256 verification, this process: node:crypto ${anchor.node.toFixed(0)} µs CPU, jose ${anchor.jose.toFixed(0)} µs CPU`,
);
// One request of each kind first: a bench whose proofs or assertions fail would measure the refusals.
const probe = await fetch(new URL('/token', token.url), {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: (await signed(1, 'dpop'))[0]! },
  body: credentialsBody,
});
const probed = (await probe.json()) as { token_type?: string };
if (probed.token_type !== 'DPoP')
  throw new Error(`a DPoP request was not answered: ${JSON.stringify(probed)}`);
for (const body of [secretRevokeBody, assertionBody((await signed(1, 'assertion'))[0]!)]) {
  const res = await fetch(new URL('/revoke', token.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  if (res.status !== 200) throw new Error(`/revoke answered ${res.status}: ${await res.text()}`);
}
// Warm-up: JIT, the Directory cache.
await load(token.url, '/token', () => ({ body: credentialsBody }), pids);
await load(token.url, '/revoke', () => ({ body: secretRevokeBody }), pids);

const row = (name: string, r: Run) =>
  `  ${name.padEnd(40)} ${r.rps.toFixed(0).padStart(6)} req/s  ${r.cpuUs.toFixed(0).padStart(5)} µs CPU/req  failed ${r.failed}`;
const extraOf = (base: Run, with_: Run) => {
  const extra = with_.cpuUs - base.cpuUs;
  return `  ÷ ${(with_.cpuUs / base.cpuUs).toFixed(2)} CPU/req; extra ${extra.toFixed(0)} µs = ${(extra / anchor.node).toFixed(2)} node:crypto / ${(extra / anchor.jose).toFixed(2)} jose ES256 verifications`;
};
const extras = { dpop: [] as number[], privateKeyJwt: [] as number[] };
for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round}`);
  const plain = await load(token.url, '/token', () => ({ body: credentialsBody }), pids);
  const proofs = from(await signed(Math.ceil(plain.rps * seconds * 1.5) + 500, 'dpop'));
  const dpop = await load(
    token.url,
    '/token',
    (i) => ({ headers: { dpop: proofs(i) }, body: credentialsBody }),
    pids,
  );
  extras.dpop.push(dpop.cpuUs - plain.cpuUs);
  console.log(row('/token client_secret_post', plain));
  console.log(row('/token client_secret_post + DPoP proof', dpop));
  console.log(extraOf(plain, dpop));
  const secret = await load(token.url, '/revoke', () => ({ body: secretRevokeBody }), pids);
  const assertions = from(await signed(Math.ceil(secret.rps * seconds * 1.5) + 500, 'assertion'));
  const keyed = await load(token.url, '/revoke', (i) => ({ body: assertionBody(assertions(i)) }), pids);
  extras.privateKeyJwt.push(keyed.cpuUs - secret.cpuUs);
  console.log(row('/revoke client_secret_post', secret));
  console.log(row('/revoke private_key_jwt', keyed));
  console.log(extraOf(secret, keyed));
}
for (const [name, values] of Object.entries(extras)) {
  const median = values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `median extra CPU of ${name === 'dpop' ? 'a DPoP proof' : 'private_key_jwt'}: ${median.toFixed(0)} µs/req = ${(median / anchor.node).toFixed(2)} node:crypto / ${(median / anchor.jose).toFixed(2)} jose ES256 verifications`,
  );
}
token.child.kill();
peers.child.kill();
