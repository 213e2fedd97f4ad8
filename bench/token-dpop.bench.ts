// Over 300 lines on purpose: one benchmark whose rows, anchors (hot loop and in-server) and interleaved rounds
// share one process tree and one report; split, the rounds could not alternate the rows.
/**
 * What a DPoP proof (RFC 9449) and private_key_jwt (RFC 7523) cost, against token as a pod runs it
 * (bench/token.server.ts, in-memory KV) and its peers (bench/token.peers.ts), each in its own child process:
 *   - POST /token client_credentials with client_secret_post, without and with a DPoP header;
 *   - POST /revoke (an unknown token: 200) by an application with client_secret_post, and by one registered
 *     for private_key_jwt (jwks by value, ES256) with a client_assertion. API credentials, the only
 *     client_credentials clients, authenticate with their secret only, so private_key_jwt is measured where an
 *     application authenticates the same way as at /token (authenticate-client), on an endpoint that does
 *     nothing else.
 * Every DPoP proof and client assertion is one of its own (fresh jti; signed before its row, so the signing
 * is not counted). The figure is the CPU of token + peers per request, which other load on a shared machine
 * changes far less than req/s, and each difference against one ES256 signature verification (the issue's
 * anchor: each may cost at most one verification more than client_secret_post), measured in every round:
 *   - in this process, in a hot loop: node:crypto's verify (what the server calls) and jose's compactVerify;
 *   - on token's request path (in-server): the client_secret_post rows again, each request carrying a JWS in
 *     x-bench-verify that token's process verifies before its handler runs (bench/token.server.ts,
 *     verifyInline). The same requests at the same rate plus one verification: the difference is what one
 *     costs where a proof's or an assertion's is paid, its code and tables out of the CPU caches between
 *     requests and the slower answer's socket wakeups included, as they are for the proof and the assertion.
 * Every row is held to one rate (BENCH_RATE, below every row's limit). At saturation a slower row serves fewer
 * requests per event-loop turn, so each of its requests carries more of the turn's fixed cost (epoll, timers,
 * write batching) and its extra reads above the work it adds; BENCH_RATE=0 runs every row flat out. Rows run
 * in interleaved rounds, in reverse order every other round (drift cancels); each round gives each row's extra
 * CPU over its client_secret_post row and its ratio to that round's anchors; the medians over rounds are the
 * figures, with the quartiles of the rounds' own ratios. BENCH_PIN=1 runs token alone on the last CPU and
 * the rest on the others (taskset; on the 2-core VM it did not narrow the rounds' spread).
 *
 *   node --import tsx bench/token-dpop.bench.ts
 *     (BENCH_SECONDS=3 BENCH_CONNECTIONS=16 BENCH_ROUNDS=16 BENCH_RATE=2000 BENCH_PIN=0)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SignJWT, compactVerify, exportJWK, generateKeyPair } from 'jose';
import { type ProofSigners, signedProofs } from './signed-proofs';
import { type PacedRequests, median, pacedLoad } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 16);
const pinned = process.env.BENCH_PIN === '1';
const cpus = availableParallelism();
if (pinned) spawnSync('taskset', ['-cp', `0-${Math.max(0, cpus - 2)}`, String(process.pid)]);
/** Requests per second every row is held to (0: each row as fast as it goes; see above). */
const rate = Number(process.env.BENCH_RATE ?? 2000);
const here = import.meta.dirname;

async function serve<T>(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<T & { child: ChildProcess; pid: number }> {
  const command = [process.execPath, '--import', 'tsx', join(here, script), ...args];
  // BENCH_PIN: token alone on the last CPU, its peers and this process (the load) on the others.
  const cpu = script === 'token.server.ts' ? String(cpus - 1) : `0-${Math.max(0, cpus - 2)}`;
  const [file, ...argv] = pinned ? ['taskset', '-c', cpu, ...command] : command;
  const child = spawn(file!, argv, { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { ...(JSON.parse(line) as T), child, pid: child.pid! };
}

interface Run {
  rps: number;
  /** CPU per request (µs) of token + peers, and its system (kernel) part. */
  cpuUs: number;
  systemUs: number;
  failed: number;
}

/** Request i's headers (beside the form content type) and body. */
type Requests = PacedRequests;

/** A closed loop of `connections` keep-alive POSTs to `path` for `seconds`, at `rate` (support's pacedLoad). */
const load = (url: string, path: string, requests: Requests, pids: number[]): Promise<Run> =>
  pacedLoad(new URL(path, url), pids, { connections, seconds, rate, requests });

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
// token verifies an x-bench-verify JWS with the client's key: the anchor's JWSs are client assertions.
const token = await serve<{ url: string }>(
  'token.server.ts',
  ['token', peers.keysAddr, peers.directoryAddr],
  {
    BENCH_VERIFICATION_KEY: JSON.stringify(clientJwk),
  },
);
const pids = [token.pid, peers.pid];
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

console.log(
  `token DPoP and private_key_jwt benchmark: ${connections} connections, ${seconds} s a row, ${rounds} rounds, ${rate > 0 ? `every row at ${rate} req/s` : 'every row as fast as it goes'}`,
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
// The in-server anchor: 2000 JWSs (used in turn) that token verifies on the request path; a bad one is refused.
const anchorJws = await signed(2000, 'assertion');
for (const [jws, status] of [
  [anchorJws[0]!, 200],
  [`${anchorJws[0]!.slice(0, -4)}AAAA`, 400],
] as const) {
  const res = await fetch(new URL('/revoke', token.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-bench-verify': jws },
    body: secretRevokeBody,
  });
  await res.arrayBuffer();
  if (res.status !== status)
    throw new Error(`token's in-server verification answered ${res.status}, not ${status}`);
}

const row = (name: string, r: Run) =>
  `  ${name.padEnd(40)} ${r.rps.toFixed(0).padStart(6)} req/s  ${r.cpuUs.toFixed(0).padStart(5)} µs CPU/req (system ${r.systemUs.toFixed(0).padStart(3)})  failed ${r.failed}`;
/** A row's requests with, in turn, one anchor JWS for token to verify on the request path. */
const verified = (body: string) => (i: number) => ({
  headers: { 'x-bench-verify': anchorJws[i % anchorJws.length]! },
  body,
});

interface Round {
  /** The anchors: one ES256 verification (µs CPU) in a hot loop (node:crypto, jose) and on token's request path. */
  node: number;
  jose: number;
  inServer: number;
  /** Extra CPU per request (µs) over client_secret_post. */
  dpop: number;
  privateKeyJwt: number;
}
type Row = 'plain' | 'plainVerify' | 'dpop' | 'secret' | 'secretVerify' | 'keyed';
const order: Row[] = ['plain', 'plainVerify', 'dpop', 'secret', 'secretVerify', 'keyed'];
const names: Record<Row, string> = {
  plain: '/token client_secret_post',
  plainVerify: '/token client_secret_post + verification',
  dpop: '/token client_secret_post + DPoP proof',
  secret: '/revoke client_secret_post',
  secretVerify: '/revoke client_secret_post + verification',
  keyed: '/revoke private_key_jwt',
};
/** A row's requests; the proofs and assertions are signed just before it (enough for 2.5× the last rate). */
async function requestsOf(kind: Row, lastRps: number): Promise<[string, Requests]> {
  const enough = Math.ceil(lastRps * seconds * 2.5) + 500;
  if (kind === 'plain') return ['/token', () => ({ body: credentialsBody })];
  if (kind === 'plainVerify') return ['/token', verified(credentialsBody)];
  if (kind === 'secret') return ['/revoke', () => ({ body: secretRevokeBody })];
  if (kind === 'secretVerify') return ['/revoke', verified(secretRevokeBody)];
  if (kind === 'dpop') {
    const proofs = from(await signed(enough, 'dpop'));
    return ['/token', (i) => ({ headers: { dpop: proofs(i) }, body: credentialsBody })];
  }
  const assertions = from(await signed(enough, 'assertion'));
  return ['/revoke', (i) => ({ body: assertionBody(assertions(i)) })];
}
const results: Round[] = [];
let lastRps = rate > 0 ? rate : 2000;
// Round 0 warms every row up (JIT, the key and header caches) and is not counted.
for (let round = 0; round <= rounds; round++) {
  const anchor = await es256VerifyUs();
  const runs = {} as Record<Row, Run>;
  for (const kind of round % 2 ? order : [...order].reverse()) {
    const [path, requests] = await requestsOf(kind, lastRps);
    runs[kind] = await load(token.url, path, requests, pids);
    lastRps = Math.max(lastRps, runs[kind].rps);
  }
  if (round === 0) continue;
  // One verification on each endpoint's path; their mean is the round's in-server anchor.
  const inServer =
    (runs.plainVerify.cpuUs - runs.plain.cpuUs + runs.secretVerify.cpuUs - runs.secret.cpuUs) / 2;
  const r: Round = {
    ...anchor,
    inServer,
    dpop: runs.dpop.cpuUs - runs.plain.cpuUs,
    privateKeyJwt: runs.keyed.cpuUs - runs.secret.cpuUs,
  };
  results.push(r);
  console.log(
    `round ${round}: one ES256 verification: node:crypto ${r.node.toFixed(0)} µs, jose ${r.jose.toFixed(0)} µs (hot loop, this process), in-server ${inServer.toFixed(0)} µs`,
  );
  for (const kind of order) console.log(row(names[kind], runs[kind]));
  for (const [name, extra] of [
    ['DPoP proof', r.dpop],
    ['private_key_jwt', r.privateKeyJwt],
  ] as const)
    console.log(
      `  ${name}: extra ${extra.toFixed(0)} µs = ${(extra / r.node).toFixed(2)} node:crypto / ${(extra / r.jose).toFixed(2)} jose / ${(extra / inServer).toFixed(2)} in-server ES256 verifications`,
    );
}
const of = (pick: (r: Round) => number) => median(results.map(pick));
// The hot-loop anchors are steady within a round: each round's extra is read against its own. The in-server
// one is a difference of two rows (noisier than either): the medians of the rounds' extras and its median.
const inServer = of((r) => r.inServer);
console.log(
  `medians over ${rounds} rounds: one ES256 verification node:crypto ${of((r) => r.node).toFixed(0)} µs, jose ${of((r) => r.jose).toFixed(0)} µs (hot loop), in-server ${inServer.toFixed(0)} µs`,
);
for (const [name, pick] of [
  ['a DPoP proof', (r: Round) => r.dpop],
  ['private_key_jwt', (r: Round) => r.privateKeyJwt],
] as const) {
  console.log(
    `median extra CPU of ${name}: ${of(pick).toFixed(0)} µs/req = ${of((r) => pick(r) / r.node).toFixed(2)} node:crypto / ${of((r) => pick(r) / r.jose).toFixed(2)} jose ES256 verifications (hot loop; medians of the rounds' ratios) / ${(of(pick) / inServer).toFixed(2)} in-server`,
  );
  // How far one round's reading strays: the quartiles of the rounds' own in-server ratios.
  const ratios = results.map((r) => pick(r) / r.inServer).sort((a, b) => a - b);
  const at = (q: number) => ratios[Math.min(ratios.length - 1, Math.floor(q * ratios.length))]!;
  console.log(
    `  the rounds' own in-server ratios: median ${median(ratios).toFixed(2)}, quartiles ${at(0.25).toFixed(2)}–${at(0.75).toFixed(2)}, ${ratios.filter((x) => x <= 1).length} of ${ratios.length} rounds at most 1`,
  );
}
token.child.kill();
peers.child.kill();
