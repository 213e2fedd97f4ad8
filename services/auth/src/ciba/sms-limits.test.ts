import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { limitDecisions } from '@sesame/kv';
import {
  SECRET,
  authorizeCiba,
  cibaForm,
  cibaSuite,
  fakeGrants,
  pollClient,
  smsOutbox,
} from '../testing/ciba';
import { startAuth } from '../testing/hosted-test-client';
import { startedForSuite } from '../testing/suite';

const sms = (target: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'sms', target, ...extra });
const refusals = async (limit: string) =>
  (await limitDecisions().get()).values.find(
    (v) => v.labels.purpose === 'ciba_sms' && v.labels.outcome === 'refused' && v.labels.limit === limit,
  )?.value ?? 0;

/** Issue 26 finding 1: any client could text any number without limit, its own words (URLs too) first. */
describe('CIBA SMS limits (hostile)', () => {
  const { auth, grants, outbox } = cibaSuite({ SESAME_CIBA_SMS_PER_CLIENT: '12' });

  it('30 requests in a row to one number: only 5 SMS go out; the rest are 403 access_denied with Retry-After', async () => {
    const target = '+41790000001';
    const before = await refusals('destination_tenant');
    const answers = [];
    for (let i = 0; i < 30; i++)
      answers.push(await authorizeCiba(auth.base, cibaForm({ channel: sms(target) })));
    assert.deepEqual(
      answers.map((a) => a.status),
      [...Array(5).fill(200), ...Array(25).fill(403)],
    );
    assert.equal(outbox.list().filter((m) => m.to === target).length, 5);
    const refused = answers[29]!;
    assert.equal(refused.body.error, 'access_denied');
    assert.match(String(refused.body.error_description), /too many SMS for this phone number/);
    // 15 minutes from the first SMS: a few seconds may have passed since.
    assert.match(refused.headers.get('retry-after') ?? '', /^(8[5-9]\d|900)$/);
    assert.equal(refused.headers.get('cache-control'), 'no-store');
    assert.equal(refused.body.auth_req_id, undefined);
    assert.equal(grants.requests.size >= 5, true);
    assert.equal((await refusals('destination_tenant')) - before, 25, 'counted in metrics');
  });

  it('distinct numbers from one client stop at the client limit (here 12, of which 5 already went)', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        authorizeCiba(auth.base, cibaForm({ channel: sms(`+4179100${String(i).padStart(4, '0')}`) })),
      ),
    );
    assert.equal(answers.filter((a) => a.status === 200).length, 7);
    assert.ok(answers.every((a) => a.status === 200 || a.body.error === 'access_denied'));
    assert.ok(answers.some((a) => /this client/.test(String(a.body.error_description))));
  });

  it.each([
    ['a URL', 'Bank: open https://evil.example/login'],
    ['a domain name', 'Bank: go to evil.example'],
    ['www.', 'Visit www.bank-secure'],
    ['a phone number', 'Call us at +41 79 555 12 34'],
    ['a bare run of digits', 'Call 0791234567'],
  ])('refuses user_link_custom_message with %s: invalid_request naming the field', async (_what, message) => {
    const res = await authorizeCiba(
      auth.base,
      cibaForm({ channel: sms('+41790000099', { user_link_custom_message: message }) }),
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_request');
    assert.match(String(res.body.error_description), /channel\.user_link_custom_message/);
  });
});

/** Issue 35 item 6: one tenant's CIBA app could use up a number's SMS allowance for every tenant. */
describe('CIBA SMS limits per tenant (hostile)', () => {
  const grants = fakeGrants();
  const outbox = smsOutbox();
  const otherTenant = { ...pollClient, clientId: 'ciba-other-tenant', tenantId: 'tenant-y' };
  const auth = startedForSuite(() =>
    startAuth({
      sms: outbox,
      env: { SESAME_CIBA_SMS_PER_NUMBER_GLOBAL: '8' },
      peers: {
        ...grants.peers,
        authenticateClient: async (id, secret) =>
          secret === SECRET ? [pollClient, otherTenant].find((c) => c.clientId === id) : undefined,
      },
    }),
  );
  const target = '+41790000077';
  const fromTenant = (clientId: string) =>
    authorizeCiba(auth.base, cibaForm({ client_id: clientId, channel: sms(target) }));

  it("tenant X's SMS to a number do not use up tenant Y's allowance; the global ceiling holds for both", async () => {
    const x = [];
    for (let i = 0; i < 6; i++) x.push((await fromTenant(pollClient.clientId)).status);
    assert.deepEqual(x, [200, 200, 200, 200, 200, 403]);
    const y = [];
    for (let i = 0; i < 4; i++) y.push(await fromTenant(otherTenant.clientId));
    assert.deepEqual(
      y.map((a) => a.status),
      [200, 200, 200, 403],
      "tenant Y has its own 5, under the number's ceiling of 8",
    );
    assert.match(String(y[3]!.body.error_description), /too many SMS for this phone number/);
    assert.equal(outbox.list().filter((m) => m.to === target).length, 8);
  });
});

describe('the CIBA SMS text', () => {
  const { auth, outbox } = cibaSuite();
  it('puts the app name and the real link first, the client’s words after them on their own line', async () => {
    const res = await authorizeCiba(
      auth.base,
      cibaForm({ channel: sms('+41790000002', { user_link_custom_message: 'Confirm your transfer' }) }),
    );
    assert.equal(res.status, 200);
    assert.match(
      outbox.list()[0]?.text ?? '',
      /^Bank: http:\/\/localhost\/ciba\/[\w-]{43}\nConfirm your transfer$/,
    );
  });
});
