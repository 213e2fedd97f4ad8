import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { emailStep } from '../../testing/email-sign-in';
import { TestBrowser, authorizePath, startAuth } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';

type Auth = Awaited<ReturnType<typeof startAuth>>;

/** A new browser's GET /authorize (from `ip` through the trusted proxy): the answer and its flow's path. */
async function start(auth: Auth, ip = '198.51.100.7') {
  const browser = auth.browser();
  browser.headers['x-forwarded-for'] = ip;
  const page = await browser.request(authorizePath());
  const flow = TestBrowser.formAction(page.body).replace(/\/email$/, '');
  return { browser, page, flow, csrf: TestBrowser.csrf(page.body) };
}

/** The person's address and the mailed code, then consent: the redirect to the RP. */
async function finish(auth: Auth, at: Awaited<ReturnType<typeof emailStep>>, email: string) {
  await at.browser.request(`${at.flow}/code`, { form: { csrf: at.csrf, code: auth.codeFor(email) } });
  return at.browser.request(`${at.flow}/consent`, { form: { csrf: at.csrf, decision: 'approve' } });
}

describe.each([
  ['the raw first visit', false],
  ['the express route', true],
])('pending sign-ins are bounded (issue 42), through %s', (_path, expressOnly) => {
  const auth = startedForSuite(() =>
    startAuth({
      behindProxy: true,
      expressOnly,
      env: {
        SESAME_PENDING_FLOWS_PER_TENANT_MAX: '3',
        SESAME_PENDING_FLOWS_MAX: '5',
        SESAME_PENDING_FLOWS_PER_IP: '1000',
      },
    }),
  );

  it('a flood evicts the oldest untouched start: its page says the sign-in expired (410), never a 5xx', async () => {
    const first = await start(auth);
    assert.equal(first.page.status, 200);
    assert.equal((await first.browser.request(first.flow)).status, 200, 'alive before the flood');
    const flood = [];
    for (let i = 0; i < 3; i++) flood.push(await start(auth, `203.0.113.${i + 1}`));
    assert.deepEqual(
      flood.map((f) => f.page.status),
      [200, 200, 200],
    );
    const gone = await first.browser.request(first.flow);
    assert.equal(gone.status, 410);
    assert.match(gone.body, /Sign-in expired/);
    assert.match(gone.body, /This sign-in took too long and has expired/);
    const typed = await first.browser.request(`${first.flow}/email`, {
      form: { csrf: first.csrf, email: 'late@example.com' },
    });
    assert.equal(typed.status, 410);
    assert.match(typed.body, /Sign-in expired/);
    // The newest three of the tenant are alive.
    for (const f of flood) assert.equal((await f.browser.request(f.flow)).status, 200);
  });

  it('a person who typed their address survives a flood many times the caps, and signs in', async () => {
    const email = `survivor-${expressOnly ? 'e' : 'r'}@example.com`;
    const person = await emailStep(auth, email);
    assert.equal(person.sent.status, 303);
    for (let i = 0; i < 12; i++) assert.equal((await start(auth, `192.0.2.${i + 1}`)).page.status, 200);
    assert.equal((await person.browser.request(person.flow)).status, 200);
    const done = await finish(auth, person, email);
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
  });
});

describe('the per-IP allowance of starts nobody acts on (issue 42)', () => {
  const auth = startedForSuite(() =>
    startAuth({
      behindProxy: true,
      env: { SESAME_PENDING_FLOWS_PER_IP: '2', SESAME_PENDING_FLOW_TTL_S: '600' },
    }),
  );
  const express = startedForSuite(() =>
    startAuth({ behindProxy: true, expressOnly: true, env: { SESAME_PENDING_FLOWS_PER_IP: '1' } }),
  );

  it('refuses the start past the allowance with the error page, 429 and Retry-After; other IPs still start', async () => {
    assert.equal((await start(auth, '198.51.100.20')).page.status, 200);
    assert.equal((await start(auth, '198.51.100.20')).page.status, 200);
    const refused = await start(auth, '198.51.100.20');
    assert.equal(refused.page.status, 429);
    const retryAfter = Number(refused.page.headers.get('retry-after'));
    assert.ok(retryAfter > 590 && retryAfter <= 600, `Retry-After ${retryAfter}`);
    assert.match(refused.page.body, /<title>[^<]*Too many sign-ins/);
    assert.match(refused.page.body, /Too many sign-ins were started from your network/);
    assert.equal(refused.page.headers.getSetCookie().length, 0, 'nothing stored for a refused start');
    assert.equal((await start(auth, '198.51.100.21')).page.status, 200);
    // Refused starts take no place: still refused, not counted further.
    assert.equal((await start(auth, '198.51.100.20')).page.status, 429);
  });

  it('the express route answers the same: 429, Retry-After, the error page', async () => {
    assert.equal((await start(express, '198.51.100.30')).page.status, 200);
    const refused = await start(express, '198.51.100.30');
    assert.equal(refused.page.status, 429);
    assert.ok(Number(refused.page.headers.get('retry-after')) > 0);
    assert.match(refused.page.body, /Too many sign-ins were started from your network/);
  });

  it('a start whose person typed their address (a mail went out) gives its place back', async () => {
    const ip = '198.51.100.40';
    const first = await start(auth, ip);
    assert.equal(first.page.status, 200);
    const sent = await first.browser.request(`${first.flow}/email`, {
      form: { csrf: first.csrf, email: 'natted@example.com' },
    });
    assert.equal(sent.status, 303);
    assert.equal((await start(auth, ip)).page.status, 200);
    assert.equal((await start(auth, ip)).page.status, 200);
    assert.equal((await start(auth, ip)).page.status, 429);
  });
});

describe('prompt=none gives its per-IP place back when it ends (issue 42)', () => {
  const auth = startedForSuite(() =>
    startAuth({ behindProxy: true, env: { SESAME_PENDING_FLOWS_PER_IP: '2' } }),
  );

  /** A new browser's silent GET /authorize from `ip`: the answer (a redirect to the RP, or the 429 page). */
  const silent = (ip: string) => {
    const browser = auth.browser();
    browser.headers['x-forwarded-for'] = ip;
    return browser.request(authorizePath({ prompt: 'none' }));
  };

  it('answers login_required as often as asked, and the allowance still admits its pages after', async () => {
    const ip = '198.51.100.50';
    for (let i = 0; i < 5; i++) {
      const answer = await silent(ip);
      assert.equal(answer.status, 302);
      assert.equal(new URL(answer.location).searchParams.get('error'), 'login_required');
    }
    assert.equal((await start(auth, ip)).page.status, 200);
    assert.equal((await start(auth, ip)).page.status, 200);
    assert.equal((await start(auth, ip)).page.status, 429, 'pages left pending still count');
    const refused = await silent(ip);
    assert.equal(refused.status, 429, 'a silent start past the allowance is refused as a page start is');
  });
});

describe('an untouched start lives SESAME_PENDING_FLOW_TTL_S, an identified one its whole flow life', () => {
  const auth = startedForSuite(() =>
    startAuth({ behindProxy: true, env: { SESAME_PENDING_FLOW_TTL_S: '1' } }),
  );

  it('expires the untouched flow after its short life, keeps the one whose person typed an address', async () => {
    const untouched = await start(auth);
    const person = await emailStep(auth, 'patient@example.com');
    await new Promise((r) => setTimeout(r, 1_300));
    assert.equal((await untouched.browser.request(untouched.flow)).status, 410);
    const done = await finish(auth, person, 'patient@example.com');
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
  });
});
