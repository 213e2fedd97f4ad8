/**
 * What a DPoP proof (RFC 9449) costs at POST /token: client_credentials with client_secret_post, without and
 * with a DPoP header, against token as a pod runs it (bench/token.server.ts, in-memory KV) and its peers
 * (bench/token.peers.ts), each in its own child process, in interleaved rounds. Every DPoP request carries a
 * proof of its own (fresh jti; signed before the round, so the signing is not counted). The figure is the
 * CPU of token + peers per request, which other load on a shared machine changes far less than req/s, and
 * its difference against one ES256 signature verification measured in this process (the anchor:
 * DPoP may cost at most one verification more than client_secret_post).
 *
 *   node --import tsx bench/token-dpop.bench.ts   (BENCH_SECONDS=4 BENCH_CONNECTIONS=16 BENCH_ROUNDS=3)
 *
 * There is no private_key_jwt row: API credentials (the only client_credentials clients) authenticate with
 * their secret only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SignJWT, compactVerify, exportJWK, generateKeyPair } from 'jose';

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

/** A closed loop of `connections` keep-alive POSTs for `seconds`; `headers(i)` gives request i's headers. */
async function load(
  url: string,
  body: string,
  headers: (i: number) => Record<string, string>,
  pids: number[],
): Promise<Run> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL('/token', url);
  const until = Date.now() + seconds * 1000;
  let sent = 0;
  let failed = 0;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const req = request(target, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers(i) },
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

/** µs of one ES256 compact JWS verification in this process (the anchor). */
async function es256VerifyUs(): Promise<number> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jws = await new SignJWT({ a: 1 }).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
  for (let i = 0; i < 200; i++) await compactVerify(jws, publicKey);
  const n = 2000;
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await compactVerify(jws, publicKey);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const peers = await serve<{ keysAddr: string; directoryAddr: string; demo: Record<string, string> }>(
  'token.peers.ts',
  [],
);
const token = await serve<{ url: string }>('token.server.ts', ['token', peers.keysAddr, peers.directoryAddr]);
const pids = [token.pid, peers.pid];
const body = new URLSearchParams({
  grant_type: 'client_credentials',
  client_id: String(peers.demo.credentialsId),
  client_secret: String(peers.demo.apiSecret),
  scope: 'svc_admin_api',
}).toString();

const key = await generateKeyPair('ES256');
const jwk = await exportJWK(key.publicKey);
// The issuer token.server.ts gives token (SESAME_AUTH_URL): a proof names the endpoint under it.
const htu = 'https://auth.bench.test/token';
/** Enough proofs for a round at a generous rate, all signed now (iat stays within the 60 s window). */
async function proofs(count: number): Promise<string[]> {
  const iat = Math.floor(Date.now() / 1000);
  const out: string[] = [];
  for (let i = 0; i < count; i++)
    out.push(
      await new SignJWT({ jti: randomUUID(), htm: 'POST', htu, iat })
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
        .sign(key.privateKey),
    );
  return out;
}

const anchor = await es256VerifyUs();
console.log(`token DPoP benchmark: ${connections} connections, ${seconds} s a row, ${rounds} rounds`);
console.log(`  one ES256 verification (jose, this process): ${anchor.toFixed(0)} µs CPU`);
// One DPoP request first: a bench whose proofs fail would measure the refusals.
const probe = await fetch(new URL('/token', token.url), {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: (await proofs(1))[0]! },
  body,
});
const probed = (await probe.json()) as { token_type?: string };
if (probed.token_type !== 'DPoP')
  throw new Error(`a DPoP request was not answered: ${JSON.stringify(probed)}`);
// Warm-up: JIT, the Directory cache.
await load(token.url, body, () => ({}), pids);
const extra: number[] = [];
for (let round = 1; round <= rounds; round++) {
  const plain = await load(token.url, body, () => ({}), pids);
  const batch = await proofs(Math.ceil(plain.rps * seconds * 1.5) + 500);
  const dpop = await load(
    token.url,
    body,
    (i) => {
      const proof = batch[i];
      if (proof === undefined) throw new Error('ran out of proofs');
      return { dpop: proof };
    },
    pids,
  );
  extra.push(dpop.cpuUs - plain.cpuUs);
  const row = (name: string, r: Run) =>
    `  ${name.padEnd(36)} ${r.rps.toFixed(0).padStart(6)} req/s  ${r.cpuUs.toFixed(0).padStart(5)} µs CPU/req  failed ${r.failed}`;
  console.log(`round ${round}`);
  console.log(row('client_secret_post', plain));
  console.log(row('client_secret_post + DPoP proof', dpop));
  console.log(
    `  DPoP ÷ client_secret_post CPU/req: ${(dpop.cpuUs / plain.cpuUs).toFixed(2)}; extra ${(dpop.cpuUs - plain.cpuUs).toFixed(0)} µs = ${((dpop.cpuUs - plain.cpuUs) / anchor).toFixed(2)} ES256 verifications`,
  );
}
extra.sort((a, b) => a - b);
const median = extra[Math.floor(extra.length / 2)]!;
console.log(
  `median extra CPU of a DPoP proof: ${median.toFixed(0)} µs/req = ${(median / anchor).toFixed(2)} ES256 verifications`,
);
token.child.kill();
peers.child.kill();
