import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it, jest } from '@jest/globals';
import { clientCredentialsToken, eventually } from '@sesame/testing';
import { decodeJwt } from 'jose';
import {
  type DemoFile,
  type RunningLauncher,
  devMailCode,
  readDemo,
  startLauncher,
} from './embedded-launcher';
import { type ActivityLogRecord, activityLogs } from './hosted-signin-support';
import { type HttpSignIn, emailCodeSignIn } from './http-signin';

/**
 * Issue 36, "Done when": `npm start` is killed with SIGKILL at a random point of a write-heavy run (email-code
 * sign-ins through the code exchange, applications created through the admin API, client_credentials tokens)
 * 20 times; after each restart on the same data directory every write that was ANSWERED before the kill is
 * there: the applications listed, the tokens introspect active, the sign-ins' refresh tokens active and their
 * flows in the activity log, and the people of the killed round sign in again as the same subject.
 */
jest.setTimeout(600_000);
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 20);
// Many sign-ins from one address in a short time: the mail limits (kept in the store too) are lifted.
const env = {
  SESAME_MAILS_PER_IP: '100000',
  SESAME_MAILS_PER_ADDRESS: '100000',
  SESAME_MAILS_PER_ADDRESS_TENANT: '100000',
  SESAME_MAILS_PER_ADDRESS_GLOBAL: '100000',
};

interface Answered {
  apps: { appId: string; clientId: string }[];
  accessTokens: string[];
  signIns: { email: string; sub: string; refreshToken: string; flowId: string; round: number }[];
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** The RP's code exchange: the ID token's subject, and the refresh token when offline_access was granted. */
async function redeem(url: string, demo: DemoFile, signIn: HttpSignIn) {
  const res = await fetch(`${url}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic(demo.clientId, demo.clientSecret),
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: signIn.code,
      redirect_uri: demo.redirectUri,
      code_verifier: signIn.codeVerifier,
    }),
  });
  const body = (await res.json()) as { id_token?: string; refresh_token?: string };
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.ok(body.id_token, `an ID token: ${JSON.stringify(body)}`);
  return { sub: String(decodeJwt(body.id_token).sub), refreshToken: body.refresh_token };
}

describe('npm start killed with SIGKILL during a write-heavy run, 20 times', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'sesame-crash-'));
  const dataDir = join(tmp, 'data');
  const demoFile = join(tmp, 'demo.json');
  const adminKey = 'crash-test-admin-key-0123456789abcdef';
  let launcher: RunningLauncher | undefined;
  afterAll(async () => {
    await launcher?.crash();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('loses no answered write: applications, access tokens, sign-ins (users, refresh tokens, activity records)', async () => {
    const answered: Answered = { apps: [], accessTokens: [], signIns: [] };
    launcher = await startLauncher({ dataDir, demoFile, adminKey, env });
    const demo = readDemo(demoFile);
    const startedAt = Date.now();
    let checks = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const url = launcher.url;
      let stopping = false;
      /** Runs `step` again and again until the kill; keeps what it answered. Failures after the kill are expected. */
      const worker = async (step: () => Promise<void>) => {
        while (!stopping) {
          try {
            await step();
          } catch (err) {
            if (!stopping) throw err;
          }
        }
      };
      let n = 0;
      const load = Promise.all([
        worker(async () => {
          const token = await clientCredentialsToken(`${url}/token`, demo.credentialsId, demo.apiSecret);
          if (!stopping) answered.accessTokens.push(token);
        }),
        worker(async () => {
          const res = await fetch(`${url}/api/v1/admin/tenants/${demo.tenantId}/applications`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
            body: JSON.stringify({ name: `crash ${round}.${n++}`, redirectUris: [demo.redirectUri] }),
          });
          const body = (await res.json()) as { appId: string; clientId: string };
          assert.equal(res.status, 201, JSON.stringify(body));
          if (!stopping) answered.apps.push({ appId: body.appId, clientId: body.clientId });
        }),
        ...[0, 1].map((w) =>
          worker(async () => {
            const email = `crash-${round}-${w}-${n++}@example.com`;
            const signIn = await emailCodeSignIn({
              authUrl: url,
              clientId: demo.clientId,
              redirectUri: demo.redirectUri,
              email,
              scope: 'openid email offline_access',
              codeFor: devMailCode(url),
            });
            const { sub, refreshToken } = await redeem(url, demo, signIn);
            assert.ok(refreshToken, 'offline_access gives a refresh token');
            if (!stopping) answered.signIns.push({ email, sub, refreshToken, flowId: signIn.flowId, round });
          }),
        ),
      ]);
      // 0.3–2 s of load, then kill -9 wherever the writes are.
      await new Promise((r) => setTimeout(r, 300 + Math.floor(Math.random() * 1700)));
      // What was answered before this point counts; an answer arriving while the process dies does not.
      stopping = true;
      await launcher.crash();
      await load;

      launcher = await startLauncher({ dataDir, demoFile, adminKey, env });
      checks += await checkAll(launcher.url, demo, adminKey, answered, round, startedAt);
    }
    assert.equal(await launcher.stop(), 0, launcher.output().slice(-3000));
    launcher = undefined;
    process.stdout.write(
      `embedded crash test: ${ROUNDS} kills, ${answered.apps.length + answered.accessTokens.length + answered.signIns.length} answered writes (${answered.apps.length} applications, ${answered.accessTokens.length} access tokens, ${answered.signIns.length} sign-ins), ${checks} checks after the restarts\n`,
    );
    assert.ok(answered.signIns.length >= ROUNDS / 2, 'enough sign-ins completed to prove anything');
  });
});

/** `fn` over `items`, 16 at a time; the answers in the items' order. */
async function inBatches<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += 16) out.push(...(await Promise.all(items.slice(i, i + 16).map(fn))));
  return out;
}

/** Every answered write is there after the restart; returns how many checks it made (a sign-in counts twice). */
async function checkAll(
  url: string,
  demo: DemoFile,
  adminKey: string,
  answered: Answered,
  round: number,
  since: number,
): Promise<number> {
  const listed = await fetch(`${url}/api/v1/admin/tenants/${demo.tenantId}/applications`, {
    headers: { authorization: `Bearer ${adminKey}` },
  });
  assert.equal(listed.status, 200);
  const apps = ((await listed.json()) as { applications: { appId: string; clientId: string }[] })
    .applications;
  const have = new Set(apps.map((a) => `${a.appId} ${a.clientId}`));
  const lostApps = answered.apps.filter((a) => !have.has(`${a.appId} ${a.clientId}`));
  assert.deepEqual(lostApps, [], `round ${round}: applications lost`);

  const introspect = async (token: string) => {
    const res = await fetch(`${url}/introspect`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(demo.credentialsId, demo.apiSecret),
      },
      body: new URLSearchParams({ token }),
    });
    assert.equal(res.status, 200);
    return (await res.json()) as { active: boolean; sub?: string };
  };
  const answers = await inBatches(answered.accessTokens, introspect);
  const inactive = answered.accessTokens.filter((_, i) => !answers[i]!.active);
  assert.equal(inactive.length, 0, `round ${round}: ${inactive.length} answered access tokens inactive`);
  const refreshed = await inBatches(answered.signIns, (s) => introspect(s.refreshToken));
  answered.signIns.forEach((s, i) =>
    assert.deepEqual(
      [refreshed[i]!.active, refreshed[i]!.sub],
      [true, s.sub],
      `round ${round}: refresh token of ${s.email}`,
    ),
  );

  // The sign-ins' flows are in the activity log (delivered from the durable outbox, so polled).
  const logs = activityLogs({
    tokenUrl: `${url}/token`,
    adminUrl: url,
    appId: demo.appId,
    credentialsId: demo.credentialsId,
    apiSecret: demo.apiSecret,
    since,
  });
  const missing = (records: ActivityLogRecord[]) => {
    const ids = new Set(records.map((r) => r.id));
    return answered.signIns.filter((s) => !ids.has(s.flowId)).map((s) => s.flowId);
  };
  const records = await eventually(
    () => logs.query(),
    (rs) => missing(rs).length === 0,
    15_000,
    250,
  );
  assert.deepEqual(missing(records), [], `round ${round}: sign-ins missing from the activity log`);

  // The people of the killed round are still the same people: a new sign-in gives the same subject.
  for (const s of answered.signIns.filter((x) => x.round === round)) {
    const signIn = await emailCodeSignIn({
      authUrl: url,
      clientId: demo.clientId,
      redirectUri: demo.redirectUri,
      email: s.email,
      codeFor: devMailCode(url),
    });
    assert.equal((await redeem(url, demo, signIn)).sub, s.sub, `round ${round}: ${s.email}`);
  }
  return answered.apps.length + answered.accessTokens.length + answered.signIns.length * 2;
}
