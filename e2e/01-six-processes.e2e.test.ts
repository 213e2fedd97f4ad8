import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { GrpcStatus, HealthClient, createClient, isGrpcStatus } from '@sesame/platform';
import { keys } from '@sesame/proto';
import { type TestPki, clientCredentials, realServers } from '@sesame/testing';
import { freshEmail } from './hosted-signin-support';
import { emailCodeSignIn, redeemAndVerify } from './http-signin';
import { type RunningProcess, serviceNames, startSixProcesses, terminate, waitReady } from './processes';

/**
 * The six services as six processes against the real Redis, Kafka and Mongo-wire servers, as they run in
 * Kubernetes: each becomes ready, answers gRPC health, and they find each other over gRPC with mTLS, enough for
 * an email-code sign-in from /authorize to a verified ID token.
 */
// Each test and hook of this file may take this long (starting processes, load runs).
jest.setTimeout(300_000);

describe('six services as six processes', () => {
  let processes: RunningProcess[] = [];
  let pki: TestPki;
  let adminKey: string;
  const byName = (name: string) => processes.find((p) => p.name === name)!;
  const http = (name: string, path: string) => `http://127.0.0.1:${byName(name).httpPort}${path}`;
  const ops = (name: string, path: string) => `http://127.0.0.1:${byName(name).opsPort}${path}`;

  beforeAll(async () => {
    // Sign-in mail goes to the tests' SMTP server (npm test exports its address for the e2e phase).
    const smtpUrl = process.env.SESAME_SMTP_URL;
    if (!smtpUrl)
      throw new Error('SESAME_SMTP_URL not set: the email sign-in here needs the test SMTP server');
    // Every sign-in of the tests comes from 127.0.0.1: lift the per-IP mail throttle (it has unit tests).
    ({ processes, pki, adminKey } = await startSixProcesses(realServers(), {
      SESAME_SMTP_URL: smtpUrl,
      SESAME_MAILS_PER_IP: '100000',
    }));
    await Promise.all(processes.map((p) => waitReady(p)));
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => terminate(p)));
  });

  it('every service answers /healthz, /readyz with its stores, and /metrics', async () => {
    for (const name of serviceNames) {
      const health = await fetch(http(name, '/healthz'));
      assert.equal(health.status, 200, `${name} /healthz`);
      const ready = (await (await fetch(http(name, '/readyz'))).json()) as {
        status: string;
        checks: Record<string, string>;
      };
      assert.equal(ready.status, 'ok', `${name} /readyz`);
      assert.ok(Object.keys(ready.checks).length > 0, `${name} checks its stores`);
      // Metrics on the ops port only (issue 26).
      const metrics = await (await fetch(ops(name, '/metrics'))).text();
      assert.match(metrics, new RegExp(`service="${name}"`), `${name} /metrics`);
      assert.equal((await fetch(http(name, '/metrics'))).status, 404, `${name} /metrics off the public port`);
    }
  });

  it('every gRPC server answers grpc.health.v1 SERVING over TLS to a probe without a client certificate', async () => {
    for (const p of processes) {
      const client = new HealthClient(
        `localhost:${p.grpcPort}`,
        grpc.credentials.createSsl(readFileSync(pki.caFile)),
      );
      try {
        assert.equal(await client.check(''), 'SERVING', p.name);
      } finally {
        client.close();
      }
    }
  });

  const admin = (path: string, body: unknown) =>
    fetch(http('mgmt', `/api/v1/admin${path}`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
      body: JSON.stringify(body),
    }).then(async (r) => {
      assert.equal(r.status, 201, `POST ${path}: ${r.status}`);
      return r.json() as Promise<Record<string, string>>;
    });

  it('they find each other: admin API → Directory, /token → Directory, mgmt → Grants and ActivityLogs', async () => {
    const { tenantId } = await admin('/tenants', { name: 'e2e six processes' });
    const { appId } = await admin(`/tenants/${tenantId}/applications`, {
      name: 'e2e app',
      redirectUris: ['http://localhost:3000/callback'],
    });
    const { credentialsId, apiSecret } = await admin(`/tenants/${tenantId}/credentials`, {});

    // token (HTTP) → mgmt (Directory gRPC) authenticates the API credentials.
    const tokenRes = await clientCredentials(http('token', '/token'), credentialsId!, apiSecret!);
    assert.equal(tokenRes.status, 200);
    const { access_token } = (await tokenRes.json()) as { access_token: string };

    // mgmt (HTTP) → token (Grants.IntrospectAccessToken) and → activity-log (ActivityLogs gRPC).
    const now = Date.now();
    const logs = await fetch(http('mgmt', '/api/v1/mgmt/activity-logs'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ appId, credentialsId, timeStart: now - 3_600_000, timeEnd: now + 60_000 }),
    });
    assert.equal(logs.status, 200);
    assert.deepEqual(await logs.json(), { activityLogs: [], total: 0 });

    // jwks publishes the keys token signs with; auth's discovery points at them.
    const jwks = (await (await fetch(http('jwks', '/jwks'))).json()) as {
      keys: Array<{ use: string; alg: string }>;
    };
    assert.deepEqual(
      jwks.keys.map((k) => `${k.use}:${k.alg}`),
      ['sig:RS256', 'sig:PS256', 'sig:ES256', 'enc:RSA-OAEP-256'],
    );
    const discovery = (await (await fetch(http('auth', '/.well-known/openid-configuration'))).json()) as {
      issuer: string;
    };
    assert.equal(discovery.issuer, `http://localhost:${byName('auth').httpPort}`);
  });

  it('gRPC needs a cluster certificate of an allowed caller: the signing key stream is refused to others', async () => {
    const watch = (credentials: grpc.ChannelCredentials) =>
      new Promise<void>((resolve, reject) => {
        const client = new keys.KeysServiceClient(`localhost:${byName('jwks').grpcPort}`, credentials);
        const stream = client.watchSigningKey({});
        stream.on('data', () => {
          stream.cancel();
          client.close();
          resolve();
        });
        stream.on('error', (err) => {
          client.close();
          reject(err);
        });
      });
    const ca = readFileSync(pki.caFile);
    const tlsCredentials = async (name: string) => {
      const files = await pki.issue(name);
      return grpc.credentials.createSsl(ca, readFileSync(files.key), readFileSync(files.cert));
    };
    await assert.rejects(watch(grpc.credentials.createInsecure()), (e) =>
      isGrpcStatus(e, GrpcStatus.UNAVAILABLE),
    );
    await assert.rejects(watch(grpc.credentials.createSsl(ca)), (e) =>
      isGrpcStatus(e, GrpcStatus.UNAUTHENTICATED),
    );
    await assert.rejects(watch(await tlsCredentials('mgmt')), (e) =>
      isGrpcStatus(e, GrpcStatus.PERMISSION_DENIED),
    );
    await watch(await tlsCredentials('token'));
    const plaintextRotate = createClient(keys.KeysServiceClient, `localhost:${byName('jwks').grpcPort}`);
    await assert.rejects(plaintextRotate.rotateKeys({}), (e) => isGrpcStatus(e, GrpcStatus.UNAVAILABLE));
    plaintextRotate.close();
  });

  it('signs a new user in by email code over plain HTTP: /authorize → email → code from the SMTP mailbox → ID token verified against /jwks', async () => {
    // auth → Directory (client), → Grants (IssueCode), token → Grants and Keys, jwks: all over mTLS.
    const redirectUri = 'http://localhost:3000/callback';
    const { tenantId } = await admin('/tenants', { name: 'e2e six processes sign-in' });
    const { clientId, clientSecret } = await admin(`/tenants/${tenantId}/applications`, {
      name: 'e2e sign-in app',
      redirectUris: [redirectUri],
    });
    const issuer = `http://localhost:${byName('auth').httpPort}`;
    const email = freshEmail('six-processes');
    const signIn = await emailCodeSignIn({
      authUrl: http('auth', ''),
      issuer,
      clientId: clientId!,
      redirectUri,
      email,
    }).catch((err: Error) => {
      err.message += `\nauth's output:\n${byName('auth').output.join('').slice(-4000)}`;
      throw err;
    });
    const claims = await redeemAndVerify({
      tokenUrl: http('token', '/token'),
      jwksUrl: http('jwks', '/jwks'),
      issuer,
      clientId: clientId!,
      clientSecret: clientSecret!,
      redirectUri,
      signIn,
    });
    assert.match(claims.sub ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(claims.email, email);
    assert.equal(claims.email_verified, true);
    assert.deepEqual(claims.amr, ['ts.svc.email_otp']);
    assert.equal(claims.acr, 'ts.svc.iac.email');
  });

  it('SIGTERM drains and exits 0 within the bound', async () => {
    const codes = await Promise.all(processes.map((p) => terminate(p, 20_000)));
    // A service that did not exit 0 says why in its last log lines ("shutdown failed", a timeout).
    const why = processes
      .flatMap((p, i) =>
        codes[i] === 0 ? [] : [`${p.name} exited ${codes[i]}:\n${p.output.join('').slice(-3000)}`],
      )
      .join('\n');
    assert.deepEqual(
      codes,
      serviceNames.map(() => 0),
      why,
    );
  });
});
