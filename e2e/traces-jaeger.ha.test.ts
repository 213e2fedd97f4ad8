import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { realServers } from '@sesame/testing';
import { freshEmail } from './hosted-signin-support';
import { HttpBrowser, emailCodeSignIn, redeemAndVerify } from './http-signin';
import { type RunningProcess, startSixProcesses, terminate, waitReady } from './processes';

/**
 * Traces in a real collector: the six services as six processes export to Jaeger (`npm run infra -- up --with
 * jaeger`, then `eval "$(npm run -s infra -- env --with jaeger)"`); an email-code sign-in whose client sends one
 * `traceparent` on every request is one trace in Jaeger with spans of auth, token, mgmt (Directory), jwks and
 * the activity-log consumer, found through Jaeger's HTTP API; the activity record keeps that trace id.
 */
jest.setTimeout(300_000);

interface JaegerTrace {
  traceID: string;
  spans: Array<{ operationName: string; processID: string }>;
  processes: Record<string, { serviceName: string }>;
}

describe('a sign-in in Jaeger', () => {
  const jaegerUrl = process.env.SESAME_JAEGER_URL;
  const otlpUrl = process.env.SESAME_JAEGER_OTLP_URL;
  const smtpUrl = process.env.SESAME_SMTP_URL;
  let processes: RunningProcess[] = [];
  let adminKey = '';
  const byName = (name: string) => processes.find((p) => p.name === name)!;
  const http = (name: string, path: string) => `http://127.0.0.1:${byName(name).httpPort}${path}`;

  beforeAll(async () => {
    if (!jaegerUrl || !otlpUrl || !smtpUrl)
      throw new Error(
        'needs Jaeger and the test SMTP server: npm run infra -- up --with jaeger; eval "$(npm run -s infra -- env --with jaeger)"',
      );
    ({ processes, adminKey } = await startSixProcesses(realServers(), {
      SESAME_SMTP_URL: smtpUrl,
      SESAME_MAILS_PER_IP: '100000',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
      // The ratio of production (one in ten): the client's sampled traceparent decides for the whole trace.
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    }));
    await Promise.all(processes.map((p) => waitReady(p)));
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => terminate(p)));
  });

  const admin = (path: string, body?: unknown) =>
    fetch(http('mgmt', `/api/v1/admin${path}`), {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
      body: body ? JSON.stringify(body) : undefined,
    }).then(async (r) => {
      assert.equal(r.status, body ? 201 : 200, `${path}: ${r.status}`);
      return r.json() as Promise<Record<string, unknown>>;
    });

  it('is one trace across auth, token, mgmt, jwks and activity-log, and the activity record names it', async () => {
    const redirectUri = 'http://localhost:3000/callback';
    const tenantId = (await admin('/tenants', { name: 'e2e traces' })).tenantId as string;
    const app = await admin(`/tenants/${tenantId}/applications`, {
      name: 'traced app',
      redirectUris: [redirectUri],
    });
    const traceId = randomBytes(16).toString('hex');
    const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
    const issuer = `http://localhost:${byName('auth').httpPort}`;
    const signIn = await emailCodeSignIn({
      authUrl: http('auth', ''),
      issuer,
      clientId: app.clientId as string,
      redirectUri,
      email: freshEmail('traces'),
      browser: new HttpBrowser(http('auth', ''), { traceparent }),
    });
    // The RP fetches the keys to verify the ID token within its trace too.
    assert.equal((await fetch(http('jwks', '/jwks'), { headers: { traceparent } })).status, 200);
    await redeemAndVerify({
      tokenUrl: http('token', '/token'),
      jwksUrl: http('jwks', '/jwks'),
      issuer,
      clientId: app.clientId as string,
      clientSecret: app.clientSecret as string,
      redirectUri,
      signIn,
      headers: { traceparent },
    });

    // Spans are exported in batches every second; the consumer's comes once activity-log folded the events.
    const wanted = ['auth', 'token', 'mgmt', 'jwks', 'activity-log'];
    let services: string[] = [];
    let trace: JaegerTrace | undefined;
    for (let i = 0; i < 60 && !wanted.every((s) => services.includes(s)); i++) {
      await new Promise((r) => setTimeout(r, 500));
      const found = (await (
        await fetch(`${jaegerUrl}/api/traces?service=auth&limit=50&lookback=1h`)
      ).json()) as { data: JaegerTrace[] };
      trace = found.data.find((t) => t.traceID === traceId);
      services = trace
        ? [...new Set(trace.spans.map((s) => trace!.processes[s.processID]!.serviceName))]
        : [];
    }
    assert.ok(trace, `trace ${traceId} among auth's traces in Jaeger`);
    assert.deepEqual(services.sort(), [...wanted].sort());
    const operations = new Set(trace.spans.map((s) => s.operationName));
    for (const op of [
      'GET /authorize',
      'POST /token',
      'sesame.directory.v1.DirectoryService/GetClient',
      'process sesame.flow-events.v1',
    ])
      assert.ok(operations.has(op), `a span ${op} among ${[...operations].join(', ')}`);

    // Support's view of the flow's record hands the same id to an SRE.
    let record: Record<string, unknown> = {};
    for (let i = 0; i < 40 && record.traceId === undefined; i++) {
      const res = await fetch(http('mgmt', `/api/v1/admin/tenants/${tenantId}/flows/${signIn.flowId}`), {
        headers: { authorization: `Bearer ${adminKey}` },
      });
      if (res.status === 200) record = ((await res.json()) as { record: Record<string, unknown> }).record;
      if (record.traceId === undefined) await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(record.traceId, traceId);
  });
});
