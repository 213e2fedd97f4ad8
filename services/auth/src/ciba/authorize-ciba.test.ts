import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  SECRET,
  authorizeCiba,
  basic,
  cibaForm,
  cibaSuite,
  createTenantUser,
  fakeGrants,
  pingClient,
  pollClient,
  smsOutbox,
} from '../testing/ciba';
import { TestBrowser, startAuth } from '../testing/hosted-test-client';
import { memoryUserStore } from '../users';

type Auth = Awaited<ReturnType<typeof startAuth>>;

const sms = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'sms', target: '+41791234567', ...extra });

describe('POST /authorize_ciba', () => {
  const { auth, grants, outbox } = cibaSuite();

  it('answers a direct_link request with auth_req_id, expires_in 1800, a link and interval 1, no-store', async () => {
    const res = await authorizeCiba(auth.base, cibaForm({ login_hint: 'ann@example.com' }));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    assert.equal(res.body.expires_in, 1800);
    assert.equal(res.body.interval, 1);
    assert.match(String(res.body.link), /^http:\/\/localhost\/ciba\/[\w-]{43}$/);
    const started = grants.requests.get(String(res.body.auth_req_id))?.start;
    assert.equal(started?.clientId, 'ciba-poll');
    assert.equal(started?.scope, 'openid email');
    assert.equal(started?.expiresIn, 1800);
  });

  it('accepts client_secret_basic as well as client_secret_post', async () => {
    const { client_secret: _, client_id: __, ...rest } = cibaForm();
    const res = await authorizeCiba(auth.base, rest, { authorization: basic(pollClient.clientId, SECRET) });
    assert.equal(res.status, 200);
  });

  it('answers a wrong secret with 401 invalid_client, a Basic challenge and no-store', async () => {
    const res = await authorizeCiba(auth.base, cibaForm({ client_secret: 'wrong' }));
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
    assert.equal(res.headers.get('www-authenticate'), 'Basic realm="sesame"');
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  it('answers a client without a secret with 401 invalid_client', async () => {
    const { client_secret: _, ...rest } = cibaForm();
    const res = await authorizeCiba(auth.base, rest);
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
  });

  const bad: Array<[string, Record<string, string>, number, string]> = [
    ['a missing channel', { channel: '' }, 400, 'invalid_request'],
    ['channel that is not JSON', { channel: '{type:sms' }, 400, 'invalid_request'],
    ['channel that is a JSON array', { channel: '[]' }, 400, 'invalid_request'],
    ['an unknown channel type', { channel: JSON.stringify({ type: 'email' }) }, 400, 'invalid_request'],
    ['sms without target', { channel: JSON.stringify({ type: 'sms' }) }, 400, 'invalid_request'],
    ['sms with a malformed number', { channel: sms({ target: '0791234567' }) }, 400, 'invalid_request'],
    [
      'sms with letters in the number',
      { channel: sms({ target: '+41 79 CALL ME' }) },
      400,
      'invalid_request',
    ],
    [
      'a custom message on direct_link',
      { channel: JSON.stringify({ type: 'direct_link', user_link_custom_message: 'x' }) },
      400,
      'invalid_request',
    ],
    ['an unknown login_hint', { login_hint: 'nobody@example.com' }, 400, 'unknown_user_id'],
    ['a login_hint that is no email', { login_hint: 'phone:+4179' }, 400, 'invalid_request'],
    ['an oversized binding_message', { binding_message: 'x'.repeat(101) }, 400, 'invalid_binding_message'],
    ['a binding_message with a line break', { binding_message: 'a\nb' }, 400, 'invalid_binding_message'],
    ['a scope without openid', { scope: 'email' }, 400, 'invalid_scope'],
    ['an unknown acr value', { acr_values: 'ts.svc.other' }, 400, 'invalid_request'],
    ['malformed claims', { claims: '{"id_token":{"svc_approval":{}}}' }, 400, 'invalid_request'],
    ['a notification token from a poll client', { client_notification_token: 'tok' }, 400, 'invalid_request'],
  ];
  it.each(bad)('refuses %s (%j) with %i %s and no-store', async (_what, extra, status, error) => {
    const form: Record<string, string> = { ...cibaForm(), ...extra };
    for (const [k, v] of Object.entries(form)) if (v === '') delete form[k];
    const before = grants.requests.size;
    const res = await authorizeCiba(auth.base, form);
    assert.equal(res.status, status);
    assert.equal(res.body.error, error);
    assert.equal(typeof res.body.error_description, 'string');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(grants.requests.size, before, 'no request was started');
  });

  it('refuses a ping client without client_notification_token, and takes one with it', async () => {
    const form = cibaForm({ client_id: pingClient.clientId });
    const refused = await authorizeCiba(auth.base, form);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'invalid_request');
    assert.match(String(refused.body.error_description), /client_notification_token/);
    const ok = await authorizeCiba(auth.base, { ...form, client_notification_token: 'rp-bearer-123' });
    assert.equal(ok.status, 200);
    const started = grants.requests.get(String(ok.body.auth_req_id))?.start;
    assert.equal(started?.clientNotificationToken, 'rp-bearer-123');
  });

  it('refuses a repeated field with invalid_request', async () => {
    const body = `${new URLSearchParams(cibaForm())}&scope=openid`;
    const res = await fetch(`${auth.base}/authorize_ciba`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_request');
  });

  it('refuses a JSON body and a GET with invalid_request, never a 500', async () => {
    const json = await fetch(`${auth.base}/authorize_ciba`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(cibaForm()),
    });
    assert.equal(json.status, 400);
    const get = await fetch(`${auth.base}/authorize_ciba`);
    assert.equal(get.status, 405);
  });

  it('sends the link by SMS with the custom message, and answers no link', async () => {
    const res = await authorizeCiba(
      auth.base,
      cibaForm({ channel: sms({ user_link_custom_message: 'Bank: confirm your transfer' }) }),
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.link, undefined);
    assert.equal(res.body.interval, undefined);
    const [message] = outbox.list();
    assert.equal(message?.to, '+41791234567');
    // Issue 26: the app name and the real link come first, the client's words after them.
    assert.match(
      message?.text ?? '',
      /^Bank: http:\/\/localhost\/ciba\/[\w-]{43}\nBank: confirm your transfer$/,
    );
  });

  it('sends the localized default text when the SMS carries no custom message', async () => {
    const res = await authorizeCiba(auth.base, cibaForm({ channel: sms(), ui_locales: 'de' }));
    assert.equal(res.status, 200);
    assert.match(outbox.list()[0]?.text ?? '', /^Bank: Tippen Sie auf den Link/);
  });
});

describe('POST /authorize_ciba when the SMS cannot be sent', () => {
  it.each([
    ['unavailable', 503, 'temporarily_unavailable'],
    ['rejected', 400, 'invalid_request'],
  ] as const)(
    'answers a provider that is %s with %i %s and leaves nothing pending',
    async (fail, status, error) => {
      const grants = fakeGrants();
      const auth = await startAuth({ peers: grants.peers, sms: smsOutbox(fail) });
      try {
        const res = await authorizeCiba(auth.base, cibaForm({ channel: sms() }));
        assert.equal(res.status, status);
        assert.equal(res.body.error, error);
        assert.equal(res.body.auth_req_id, undefined);
        const [started] = [...grants.requests.values()];
        assert.equal(started?.outcome?.kind, 'denied', 'the started request was denied at Grants');
      } finally {
        await auth.stop();
      }
    },
  );
});

describe('the CIBA link in a browser', () => {
  let auth: Auth;
  let grants: ReturnType<typeof fakeGrants>;
  beforeAll(async () => {
    grants = fakeGrants();
    const userStore = memoryUserStore();
    await createTenantUser(userStore, 'ann@example.com');
    auth = await startAuth({ peers: grants.peers, userStore });
  });
  afterAll(() => auth.stop());

  async function toConsent(extra: Record<string, string> = {}) {
    const started = await authorizeCiba(
      auth.base,
      cibaForm({ login_hint: 'ann@example.com', binding_message: 'Code 4F2K', ...extra }),
    );
    const authReqId = String(started.body.auth_req_id);
    const link = new URL(String(started.body.link)).pathname;
    const phone = auth.browser();
    const first = await phone.request(link);
    assert.equal(first.status, 200);
    const taken = await phone.request(link, { form: { csrf: TestBrowser.csrf(first.body) } });
    assert.equal(taken.status, 303);
    const identify = await phone.request(taken.location);
    assert.match(identify.body, /value="ann@example.com"/, 'the hinted address is filled in');
    const sent = await phone.request(TestBrowser.formAction(identify.body), {
      form: { csrf: TestBrowser.csrf(identify.body), email: 'ann@example.com' },
    });
    const flow = sent.location;
    const code = await phone.request(`${flow}/code`, {
      form: { csrf: TestBrowser.csrf(identify.body), code: auth.codeFor('ann@example.com') },
    });
    const consent = await phone.request(code.location);
    return { authReqId, link, phone, first, consent, flow, csrf: TestBrowser.csrf(identify.body) };
  }

  it('opening marks link_opened, shows the binding message, and the link works once', async () => {
    const started = await authorizeCiba(auth.base, cibaForm({ binding_message: 'Code 4F2K' }));
    const authReqId = String(started.body.auth_req_id);
    const link = new URL(String(started.body.link)).pathname;
    const phone = auth.browser();
    assert.equal(grants.requests.get(authReqId)?.opened, false);
    const page = await phone.request(link);
    assert.equal(grants.requests.get(authReqId)?.opened, true);
    assert.match(page.body, /Code 4F2K/);
    assert.match(page.body, /Bank asks you to sign in/);
    const taken = await phone.request(link, { form: { csrf: TestBrowser.csrf(page.body) } });
    assert.equal(taken.status, 303);
    assert.equal((await phone.request(link)).status, 410, 'a taken link is spent');
    const again = await auth.browser().request(link, { form: { csrf: 'x' } });
    assert.equal(again.status, 403);
  });

  it('an unknown link is a 410 page, not an error', async () => {
    const res = await auth.browser().request(`/ciba/${'a'.repeat(43)}`);
    assert.equal(res.status, 410);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  });

  it('the consent page shows the binding message prominently: its own boxed, headed section, in large type', async () => {
    const { consent } = await toConsent();
    assert.match(
      consent.body,
      /<section class="panel" aria-labelledby="message-heading">\s*<h2 id="message-heading">Message from [^<]+<\/h2>\s*<p class="message binding-message">Code 4F2K<\/p>/,
    );
  });

  it('Approve completes the request at Grants with the claim set, and shows the done page', async () => {
    const { authReqId, phone, consent, flow } = await toConsent();
    assert.equal(consent.status, 200);
    assert.match(consent.body, /Code 4F2K/, 'the binding message is on the consent page');
    assert.match(consent.body, />Approve</);
    assert.match(consent.body, />Deny</);
    const done = await phone.request(`${flow}/consent`, {
      form: { csrf: TestBrowser.csrf(consent.body), decision: 'approve' },
    });
    assert.equal(done.status, 200);
    assert.match(done.body, /Request approved/);
    const outcome = grants.requests.get(authReqId)?.outcome;
    assert.equal(outcome?.kind, 'completed');
    assert.ok(outcome?.kind === 'completed');
    assert.equal(outcome.claims.email, 'ann@example.com');
    assert.deepEqual(outcome.claims.amr, ['ts.svc.email_otp']);
    assert.deepEqual(auth.issued, [], 'no authorization code was issued');
  });

  it('Deny denies the request at Grants (access_denied for the RP) and shows a done page', async () => {
    const { authReqId, phone, consent, flow } = await toConsent();
    const denied = await phone.request(`${flow}/consent`, {
      form: { csrf: TestBrowser.csrf(consent.body), decision: 'deny' },
    });
    assert.equal(denied.status, 200);
    assert.match(denied.body, /Request denied/);
    assert.equal(grants.requests.get(authReqId)?.outcome?.kind, 'denied');
  });

  it('a psd2 request shows the payment on the consent page', async () => {
    const claims = JSON.stringify({
      id_token: {
        svc_psd2_transaction: {
          value: { display_data: { payee: 'ACME', payment_amount: '€ 5', payment_method: 'Card' } },
        },
      },
    });
    const { consent } = await toConsent({ claims });
    assert.match(consent.body, /Payment to approve/);
    assert.match(consent.body, /ACME/);
  });
});

describe('the SMS outbox pages of auth', () => {
  it('serves /dev/sms.json in development, with the CIBA link text, newest first', async () => {
    const grants = fakeGrants();
    const auth = await startAuth({ peers: grants.peers, env: { SESAME_ENV: 'development' } });
    try {
      await authorizeCiba(auth.base, cibaForm({ channel: sms() }));
      const res = await fetch(`${auth.base}/dev/sms.json`);
      assert.equal(res.status, 200);
      const { messages } = (await res.json()) as { messages: Array<Record<string, string>> };
      assert.equal(messages.length, 1);
      assert.deepEqual(Object.keys(messages[0] ?? {}), ['id', 'to', 'text', 'sentAt']);
      assert.match(messages[0]?.text ?? '', /\/ciba\/[\w-]{43}$/);
    } finally {
      await auth.stop();
    }
  });

  it('has no /dev/sms outside development', async () => {
    const auth = await startAuth();
    try {
      assert.equal((await fetch(`${auth.base}/dev/sms.json`)).status, 404);
    } finally {
      await auth.stop();
    }
  });
});

describe('a CIBA request asking for a verified phone', () => {
  const { auth, grants, outbox } = cibaSuite();
  it('takes acr ts.svc.iac.phone_number and verifies the number by SMS before Approve', async () => {
    const started = await authorizeCiba(
      auth.base,
      cibaForm({ scope: 'openid phone', acr_values: 'ts.svc.iac.phone_number' }),
    );
    assert.equal(started.status, 200);
    const link = new URL(String(started.body.link)).pathname;
    const phone = auth.browser();
    const first = await phone.request(link);
    const csrf = TestBrowser.csrf(first.body);
    const taken = await phone.request(link, { form: { csrf } });
    const sent = await phone.request(`${taken.location}/email`, {
      form: { csrf, email: 'sms@example.com' },
    });
    const flow = sent.location;
    const code = await phone.request(`${flow}/code`, {
      form: { csrf, code: auth.codeFor('sms@example.com') },
    });
    const next = await phone.request(code.location);
    assert.equal(next.location, `${flow}/phone`);
    await phone.request(`${flow}/phone`, { form: { csrf, phone: '+447700900123' } });
    const smsCode = /\b(\d{6})\b/.exec(outbox.list()[0]?.text ?? '')?.[1] ?? '';
    const verified = await phone.request(`${flow}/phone-code`, { form: { csrf, code: smsCode } });
    const consent = await phone.request(verified.location);
    assert.match(consent.body, />Approve</);
    await phone.request(`${flow}/consent`, { form: { csrf, decision: 'approve' } });
    const outcome = grants.requests.get(String(started.body.auth_req_id))?.outcome;
    assert.ok(outcome?.kind === 'completed');
    assert.equal(outcome.claims.phoneNumber, '+447700900123');
    assert.equal(outcome.claims.phoneNumberVerified, true);
    assert.ok(outcome.claims.acr.includes('ts.svc.iac.phone_number'));
  });
});

describe('the per-app CIBA lifetime', () => {
  it('uses the app setting (ciba.expiresIn) for expires_in and the request at Grants', async () => {
    const grants = fakeGrants();
    const short = { ...pollClient, ciba: { ...pollClient.ciba!, expiresIn: 600 } };
    const auth = await startAuth({
      peers: {
        ...grants.peers,
        authenticateClient: async (_id, secret) => (secret === SECRET ? short : undefined),
      },
    });
    try {
      const res = await authorizeCiba(auth.base, cibaForm());
      assert.equal(res.body.expires_in, 600);
      assert.equal(grants.requests.get(String(res.body.auth_req_id))?.start.expiresIn, 600);
    } finally {
      await auth.stop();
    }
  });
});
