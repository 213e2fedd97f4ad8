/**
 * The embedded default at size (issue 36, Performance): a data directory holding SIZE_PEOPLE (100,000) people
 * of the demo tenant (auth user + membership + device + passkey), SIZE_RECORDS (1,000,000) activity records
 * and SIZE_TOKENS (1,000,000) live access tokens, written through the adapters in big transactions; then
 *   - start-up: the platform (bench/embedded.server.ts: startEmbedded on that directory, as `npm start` runs
 *     it) until it serves, spawn → ready and startEmbedded alone (goal ≤ 5 s), and its RSS (goal ≤ 1 GB);
 *   - the support look-ups through the running platform's admin API (search by email; a person's page:
 *     detail + first page of their sign-ins), SIZE_SAMPLES (200) each, p50/p95 (goal p95 ≤ 150 ms);
 *   - the CSV export of every record (GET …/flows/export?format=csv), with the platform's RSS before and its
 *     peak during the download (bounded memory).
 *
 *   npm run bench -- embedded-size
 *   SIZE_PEOPLE=10000 SIZE_RECORDS=100000 SIZE_TOKENS=100000 npm run bench -- embedded-size   (smaller)
 *   SIZE_DATA_DIR=/tmp/size1m npm run bench -- embedded-size   (keeps the store; a second run reuses it)
 *
 * SIZE_EXPORT=0 skips the export. The fill takes minutes at the full size (it is not timed as a goal).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteActivityLogRepository } from '@sesame/activity-log-service';
import { createPasskeyStore, createUserStore } from '@sesame/auth-service';
import type { DemoSeed } from '@sesame/embedded';
import { EmbeddedStore } from '@sesame/embedded-store';
import type { FlowEventFacts } from '@sesame/flow-events';
import { sha256 } from '@sesame/platform';
// bench has no @sesame/kv dependency of its own (a new one would change the lockfile): the adapter's source.
import { SqliteKeyValueStore } from '../libs/kv/src/sqlite';
import { loadAverage, quantile, rssOf, serve } from './support';

const PEOPLE = Number(process.env.SIZE_PEOPLE ?? 100_000);
const RECORDS = Number(process.env.SIZE_RECORDS ?? 1_000_000);
const TOKENS = Number(process.env.SIZE_TOKENS ?? 1_000_000);
const SAMPLES = Number(process.env.SIZE_SAMPLES ?? 200);
const EXPORT = process.env.SIZE_EXPORT !== '0';
const kept = process.env.SIZE_DATA_DIR;
const dir = kept ?? mkdtempSync(join(tmpdir(), 'sesame-bench-size-'));
const adminKey = randomBytes(32).toString('base64url');
const env = { SESAME_ADMIN_KEY: adminKey };
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const T0 = Date.now() - 30 * 86_400_000;
const userId = (i: number) => `size-user-${i}`;
const emailOf = (i: number) => `person${i}@example.com`;
const sizeFile = join(dir, 'bench-size.json');
// The platform child tunes V8 as `npm start` does (embedded.server.ts reads it from the inherited environment).
process.env.BENCH_AS_MAIN = '1';

interface Filled {
  people: number;
  records: number;
  tokens: number;
  tenantId: string;
  appId: string;
}

/** The demo tenant and app: the platform seeds them on the empty store (started once and stopped). */
async function seedDemo(): Promise<DemoSeed> {
  const platform = await serve<{ demo: DemoSeed }>('embedded.server.ts', [JSON.stringify(env), dir]);
  await platform.stop();
  return platform.demo;
}

/** Runs `write` for items [0, count) in transactions of `batch` (adapter calls nest as savepoints). */
async function inTransactions(
  engine: EmbeddedStore,
  what: string,
  count: number,
  batch: number,
  write: (from: number, to: number) => Promise<void>,
) {
  const started = performance.now();
  for (let from = 0; from < count; from += batch) {
    engine.db.exec('BEGIN');
    try {
      await write(from, Math.min(count, from + batch));
      engine.db.exec('COMMIT');
    } catch (err) {
      engine.db.exec('ROLLBACK');
      throw err;
    }
  }
  console.log(`  ${count} ${what} written in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

async function fill(tenantId: string, appId: string) {
  const engine = EmbeddedStore.open({ dir });
  try {
    // The membership lock store is Mongo's only: the embedded user store writes memberships in its transactions.
    const people = createUserStore(undefined, {} as never, engine);
    const passkeys = createPasskeyStore(undefined, engine);
    await inTransactions(engine, 'people (user, membership, device, passkey)', PEOPLE, 5000, async (a, b) => {
      for (let i = a; i < b; i++) {
        const at = T0 + i;
        await people.users.create({ userId: userId(i), email: emailOf(i), createdAt: at });
        await people.memberships.save({
          tenantId,
          appId,
          userId: userId(i),
          alias: `alias-${i}`,
          acrValues: [],
          confirmed: true,
          firstLoginAt: at,
          lastLoginAt: at + 1000,
          deviceLogins: { [`device-${i}`]: { firstLoginAt: at, lastLoginAt: at + 1000 } },
        });
        await people.devices.save({
          userId: userId(i),
          deviceId: `device-${i}`,
          registeredAt: at,
          lastSeenAt: at + 1000,
          facts: {
            deviceName: 'Mac',
            osType: 'macOS',
            osVersion: '14',
            browserType: 'Chrome',
            browserVersion: '120',
          },
        });
        await passkeys.create({
          credentialId: `cred-${i}`,
          userId: userId(i),
          deviceId: `device-${i}`,
          publicKey: 'pQECAyYgASFYIA',
          counter: 1,
          transports: ['internal', 'hybrid'],
          aaguid: '00000000-0000-0000-0000-000000000000',
          backupEligible: true,
          backedUp: false,
          createdAt: at,
          status: 'active',
        });
      }
    });
    const flows = new SqliteActivityLogRepository(engine);
    await inTransactions(engine, 'activity records (2 events each)', RECORDS, 10_000, async (a, b) => {
      const batch: FlowEventFacts[] = [];
      for (let r = a; r < b; r++) batch.push(...flowEvents(r, tenantId, appId));
      await flows.applyFlowEvents(batch);
    });
    // Token's KV namespace (createKeyValueStore, owner token) and AccessTokenStore's key: access:<sha256>.
    const kv = new SqliteKeyValueStore(engine, 'sesame:token:');
    await inTransactions(engine, 'live access tokens', TOKENS, 20_000, async (a, b) => {
      for (let t = a; t < b; t++) {
        const grant = {
          kind: 'user',
          tenantId,
          clientId: appId,
          appId,
          sub: `alias-${t % Math.max(1, PEOPLE)}`,
          scope: 'openid email',
          expiresAt: Math.floor(Date.now() / 1000) + 86_400,
          issuedAt: Date.now(),
        };
        await kv.set(`access:${sha256(`size-token-${t}`)}`, JSON.stringify(grant), { ttlMs: 86_400_000 });
      }
    });
  } finally {
    engine.close();
  }
}

/** Record r: person r % PEOPLE signing in, every fifth a failure. */
function flowEvents(r: number, tenantId: string, appId: string): FlowEventFacts[] {
  const person = r % Math.max(1, PEOPLE);
  const start = T0 + r * 1000;
  const failed = r % 5 === 0;
  const common = {
    flowId: `size-flow-${r}`,
    tenantId,
    appId,
    clientIp: '203.0.113.7',
    userId: userId(person),
    email: emailOf(person),
    flowType: 'authentication',
    accessingDevice: 'macOS 14, Chrome 120',
    authMethodType: 'email_otp',
    details: {},
  };
  return [
    { ...common, eventId: `size-e-${r}-0`, timestamp: start, action: 'auth_start_oidc' },
    {
      ...common,
      eventId: `size-e-${r}-1`,
      timestamp: start + 1000,
      action: failed ? 'email_verification_failure' : 'auth_complete',
      status: failed ? 'failure' : 'success',
      ...(failed ? { errorCode: 'auth_failure', failureReason: 'wrong email code' } : {}),
    },
  ];
}

console.log(
  `embedded store at size: ${PEOPLE} people, ${RECORDS} activity records, ${TOKENS} live access tokens in ${dir}; load average ${loadAverage()}`,
);
let filled: Filled | undefined = existsSync(sizeFile)
  ? JSON.parse(readFileSync(sizeFile, 'utf8'))
  : undefined;
if (filled && (filled.people !== PEOPLE || filled.records !== RECORDS || filled.tokens !== TOKENS))
  throw new Error(
    `${dir} holds another size (${JSON.stringify(filled)}): give SIZE_DATA_DIR a new directory`,
  );
if (!filled) {
  const demo = await seedDemo();
  await fill(demo.tenantId, demo.appId);
  filled = { people: PEOPLE, records: RECORDS, tokens: TOKENS, tenantId: demo.tenantId, appId: demo.appId };
  writeFileSync(sizeFile, JSON.stringify(filled));
}
console.log(`  store: ${mb(statSync(join(dir, 'sesame.db')).size)} on disk`);

// Start-up: spawn → the JSON line printed once the platform serves.
const spawned = performance.now();
const platform = await serve<{ url: string; startMs: number }>('embedded.server.ts', [
  JSON.stringify(env),
  dir,
]);
const readyMs = performance.now() - spawned;
const rssReady = rssOf(platform.pid);
const goal = (ok: boolean) => (ok ? 'met' : 'MISSED');
console.log(
  `  start-up: ready ${(readyMs / 1000).toFixed(2)} s after spawn (startEmbedded ${(platform.startMs / 1000).toFixed(2)} s; goal <= 5 s: ${goal(readyMs <= 5000)}); RSS ${mb(rssReady)} (goal <= 1 GB: ${goal(rssReady <= 2 ** 30)})`,
);

const base = `${platform.url.replace('localhost', '127.0.0.1')}/api/v1/admin/tenants/${filled.tenantId}`;
const get = async (path: string) => {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${adminKey}` } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status} ${body.slice(0, 200)}`);
  return JSON.parse(body) as Record<string, unknown[]>;
};
async function measure(name: string, run: (i: number) => Promise<void>) {
  const ms: number[] = [];
  for (let s = 0; s < SAMPLES; s++) {
    const i = Math.floor(Math.random() * PEOPLE);
    const started = performance.now();
    await run(i);
    ms.push(performance.now() - started);
  }
  const p95 = quantile(ms, 0.95);
  console.log(
    `  ${name.padEnd(58)} p50 ${quantile(ms, 0.5).toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  p99 ${quantile(ms, 0.99).toFixed(1).padStart(6)} ms  (goal p95 <= 150 ms: ${goal(p95 <= 150)})`,
  );
}
try {
  await measure('search by email (GET …/users?query=)', async (i) => {
    const { users } = await get(`/users?query=${encodeURIComponent(emailOf(i).toUpperCase())}`);
    if (users?.length !== 1) throw new Error(`search for ${emailOf(i)} found ${JSON.stringify(users)}`);
  });
  await measure("a person's page (GET …/users/:id + …/flows?user=, 50)", async (i) => {
    const [, { flows }] = await Promise.all([
      get(`/users/${userId(i)}`),
      get(`/flows?user=${userId(i)}&limit=50`),
    ]);
    if (RECORDS >= PEOPLE && !flows?.length) throw new Error(`no sign-ins on ${userId(i)}'s page`);
  });
  console.log(`  RSS after the look-ups ${mb(rssOf(platform.pid))}; load average ${loadAverage()}`);
  if (EXPORT) {
    const rssBefore = rssOf(platform.pid);
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(platform.pid));
    }, 50);
    const started = performance.now();
    const res = await fetch(`${base}/flows/export?format=csv`, {
      headers: { authorization: `Bearer ${adminKey}` },
    });
    if (res.status !== 200 || !res.body) throw new Error(`export: HTTP ${res.status}`);
    let lines = 0;
    let bytes = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    }
    clearInterval(sampler);
    console.log(
      `  export (CSV download): ${lines - 1} records, ${mb(bytes)} in ${((performance.now() - started) / 1000).toFixed(1)} s; platform RSS ${mb(rssBefore)} before, peak ${mb(peak)} (growth ${mb(peak - rssBefore)})`,
    );
  }
} finally {
  await platform.stop();
  if (!kept) rmSync(dir, { recursive: true, force: true });
}
console.log(`  load average now ${loadAverage()}`);
process.exit(0);
