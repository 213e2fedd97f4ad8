// Sign-in health as an SRE sees it: /metrics after a scripted sign-in, a failed one and an abandoned one.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { TestBrowser } from '@sesame/auth-service/test-client';
import { type Embedded, startEmbedded } from './index';

const ABANDON_AFTER_S = 8;
const env = {
  LOG_LEVEL: 'silent',
  SESAME_ENV: 'development',
  SESAME_FUNNEL_ABANDON_AFTER_S: String(ABANDON_AFTER_S),
  SESAME_FUNNEL_SWEEP_MS: '100',
};
let demoAppId = '';

/** Every sample of a metric on a service's /metrics, keyed by its labels without `service`. */
async function samples(embedded: Embedded, service: string, metric: string): Promise<Map<string, number>> {
  // Metrics are on the ops port only (issue 26).
  const res = await fetch(`${embedded.opsUrl}/ops/${service}/metrics`);
  assert.equal(res.status, 200);
  const text = await res.text();
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== metric) continue;
    const labels = m[2]!
      .split(',')
      .filter((l) => !l.startsWith('service='))
      .join(',');
    found.set(labels, Number(m[3]));
  }
  return found;
}

/** What moved between two readings (only the series that changed). */
function moved(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of after) if (v !== (before.get(k) ?? 0)) out[k] = v - (before.get(k) ?? 0);
  return Object.fromEntries(Object.entries(out).sort());
}

const byStage = (delta: Record<string, number>) => {
  const stages: Record<string, number> = {};
  for (const [labels, n] of Object.entries(delta)) {
    const stage = /stage="([a-z]+)"/.exec(labels)![1]!;
    stages[stage] = (stages[stage] ?? 0) + n;
  }
  return stages;
};

describe('sign-in metrics on /metrics (embedded platform)', () => {
  let embedded: Embedded;
  beforeAll(async () => {
    embedded = await startEmbedded({ port: 0, env, seedDemo: true });
    demoAppId = embedded.demo!.appId;
  });
  afterAll(() => embedded?.stop());

  /** Opens the demo app's /authorize and, if asked, types an address; returns the browser and flow path. */
  async function begin(email?: string) {
    const demo = embedded.demo!;
    const browser = new TestBrowser(embedded.url);
    const query = new URLSearchParams({
      client_id: demo.clientId,
      redirect_uri: demo.redirectUri,
      response_type: 'code',
      scope: 'openid email',
      state: randomBytes(8).toString('hex'),
      nonce: randomBytes(8).toString('hex'),
      code_challenge: randomBytes(32).toString('base64url'),
      code_challenge_method: 'S256',
    });
    const identify = await browser.request(`/authorize?${query}`);
    assert.equal(identify.status, 200, identify.body.slice(0, 200));
    const emailAction = TestBrowser.formAction(identify.body);
    const flow = emailAction.replace(/\/email$/, '');
    if (!email) return { browser, flow, codePage: '' };
    const sent = await browser.request(emailAction, {
      form: { csrf: TestBrowser.csrf(identify.body), email },
    });
    assert.equal(sent.status, 303, sent.body.slice(0, 200));
    const codePage = await browser.request(sent.location);
    assert.equal(codePage.status, 200);
    return { browser, flow, codePage: codePage.body };
  }

  async function codeFor(to: string): Promise<string> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await fetch(`${embedded.url}/dev/mail.json?to=${encodeURIComponent(to)}`);
      const { messages } = (await res.json()) as { messages: Array<{ text: string }> };
      const code = messages[0] && /\b(\d{6})\b/.exec(messages[0].text)?.[1];
      if (code) return code;
      assert.ok(Date.now() < deadline, `no code mailed to ${to}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('counts a sign-in, a failed one and an abandoned one exactly, with mail sent twice', async () => {
    const funnelBefore = await samples(embedded, 'activity-log', 'sesame_signin_funnel_total');
    const mailBefore = await samples(embedded, 'auth', 'sesame_mail_messages_total');
    const run = randomBytes(4).toString('hex');

    // 1. A complete email-code sign-in.
    const ok = `ok-${run}@example.com`;
    const signIn = await begin(ok);
    const verified = await signIn.browser.request(`${signIn.flow}/code`, {
      form: { csrf: TestBrowser.csrf(signIn.codePage), code: await codeFor(ok) },
    });
    assert.equal(verified.status, 303);
    let done = await signIn.browser.request(verified.location);
    let consented = 0;
    if (done.status === 200) {
      consented = 1;
      done = await signIn.browser.request(`${signIn.flow}/consent`, {
        form: { csrf: TestBrowser.csrf(done.body), decision: 'approve' },
      });
    }
    assert.equal(done.status, 302);
    assert.ok(new URL(done.location).searchParams.get('code'));

    // 2. A failure: wrong codes until the code is dead (5 tries by default; one more to be sure).
    const bad = `bad-${run}@example.com`;
    const failing = await begin(bad);
    const right = await codeFor(bad);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 6; i++) {
      const res = await failing.browser.request(`${failing.flow}/code`, {
        form: { csrf: TestBrowser.csrf(failing.codePage), code: wrong },
      });
      assert.equal(res.status, 400);
    }

    // 3. Abandoned: /authorize, then nothing.
    await begin();

    // Both unfinished flows are abandoned once they have been quiet for ABANDON_AFTER_S.
    const deadline = Date.now() + 60_000;
    let funnel: Record<string, number> = {};
    for (;;) {
      funnel = moved(funnelBefore, await samples(embedded, 'activity-log', 'sesame_signin_funnel_total'));
      if ((byStage(funnel).abandoned ?? 0) >= 2 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepEqual(byStage(funnel), {
      started: 3,
      identified: 2,
      proven: 1,
      ...(consented ? { consented: 1 } : {}),
      completed: 1,
      failed: 1,
      abandoned: 2,
    });
    // Per method: the sign-in proved and completed with an email code; the abandoned flow never chose one.
    assert.equal(funnel[`stage="completed",method="email_otp",flow="authentication",app="other"`], 1);
    assert.equal(funnel[`stage="failed",method="email_otp",flow="authentication",app="other"`], 1);
    assert.equal(funnel[`stage="abandoned",method="none",flow="authentication",app="other"`], 1);

    const mail = moved(mailBefore, await samples(embedded, 'auth', 'sesame_mail_messages_total'));
    assert.deepEqual(mail, { 'outcome="sent",transport="outbox"': 2 });
    // No label carries a person, an address, a flow or an app that was not listed (SESAME_FUNNEL_APPS).
    for (const labels of [...Object.keys(funnel), ...Object.keys(mail)]) {
      assert.doesNotMatch(labels, /@|example\.com|flow[A-Za-z]*Id|user/, labels);
      assert.ok(!labels.includes(demoAppId), labels);
    }
  }, 120_000);

  // A Prometheus that scrapes only /metrics must see the funnel: one scrape carries every service's series.
  it('one scrape of /metrics carries every service, labelled by service, after that sign-in', async () => {
    const res = await fetch(`${embedded.opsUrl}/metrics`);
    assert.equal(res.status, 200);
    const text = await res.text();
    const lines = text.split('\n');
    const sampleOf = (metric: string, labels: string) =>
      lines.filter((l) => l.startsWith(`${metric}{`) && l.includes(labels));

    // The funnel, with the same figures as the activity-log service's own endpoint.
    const funnel = await samples(embedded, 'activity-log', 'sesame_signin_funnel_total');
    const completed = `stage="completed",method="email_otp",flow="authentication",app="other"`;
    assert.ok((funnel.get(completed) ?? 0) >= 1);
    const combined = sampleOf('sesame_signin_funnel_total', `${completed},service="activity-log"`);
    assert.equal(combined.length, 1, text.slice(0, 500));
    assert.equal(Number(combined[0]!.split(' ').at(-1)), funnel.get(completed));

    // Every series of every service's own endpoint is in the one scrape: its own with its service label, a
    // process-wide one (the same on every endpoint) once without it.
    // A series as name and sorted labels (the combined exposition may order labels otherwise).
    const seriesOf = (body: string) =>
      body
        .split('\n')
        .filter((l) => l && !l.startsWith('#'))
        .map((l) => {
          const name = /^[a-zA-Z_:][\w:]*/.exec(l)![0];
          const labels = [...l.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => `${m[1]}=${m[2]}`).sort();
          return `${name}{${labels.join(',')}}`;
        });
    const all = new Set(seriesOf(text));
    const unlabelled = (series: string) => series.replace(/,?service=[a-z-]+/, '').replace('{,', '{');
    for (const service of Object.keys(embedded.services)) {
      const own = seriesOf(await (await fetch(`${embedded.opsUrl}/ops/${service}/metrics`)).text());
      assert.ok(
        own.some((series) => series.includes(`service=${service}`) && all.has(series)),
        service,
      );
      const absent = own.filter((series) => !all.has(series) && !all.has(unlabelled(series)));
      assert.deepEqual(absent, [], service);
    }
    assert.ok(sampleOf('sesame_http_request_duration_seconds_count', 'service="auth"').length > 0);

    // One HELP and one TYPE per metric; a process-wide series (mail, the process' CPU) once, without a service.
    const helps = lines.filter((l) => l.startsWith('# HELP ')).map((l) => l.split(' ')[2]);
    assert.equal(helps.length, new Set(helps).size);
    const mail = lines.filter((l) => l.startsWith('sesame_mail_messages_total{'));
    assert.deepEqual(
      mail.map((l) => l.replace(/ \S+$/, '')),
      ['sesame_mail_messages_total{outcome="sent",transport="outbox"}'],
    );
    assert.equal(lines.filter((l) => l.startsWith('process_cpu_user_seconds_total')).length, 1);
  });
});
