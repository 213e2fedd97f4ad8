import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { assertInvalidRequest, assertRedirected, parse } from './authorize-test-support';

const PSD2_SHAPE =
  'claims svc_psd2_transaction must be {"value":{"display_data":{"payee","payment_amount","payment_method"},"additional_data"?}} with non-empty strings';
const APPROVAL_SHAPE =
  'claims svc_approval must be {"value":{"display_data":{"main_attribute"?:{"label","value"},"attributes":[at most 2 of {"label","value","icon"?}]},"additional_data"?:{}}} with non-empty strings and a known icon';
const NOT_AN_OBJECT = 'claims must be a JSON object whose id_token and userinfo members are objects';

const psd2 = { payee: 'Acme GmbH', payment_amount: '€ 12.50', payment_method: 'Visa •••• 4242' };
const claims = (idToken: unknown) => JSON.stringify({ id_token: idToken });
const approvalWith = (displayData: unknown) =>
  claims({ svc_approval: { value: { display_data: displayData } } });

describe('claims: svc_psd2_transaction', () => {
  it('returns display_data and additional_data of any type', async () => {
    const { request } = await parse({
      claims: claims({
        svc_psd2_transaction: { value: { display_data: psd2, additional_data: [1, 'two'] } },
      }),
    });
    assert.deepEqual(request.claims, {
      psd2Transaction: { display_data: psd2, additional_data: [1, 'two'] },
    });
  });

  it('refuses a missing required display_data field (invalid_request)', async () => {
    const { payment_method: _, ...missing } = psd2;
    await assertInvalidRequest(
      { claims: claims({ svc_psd2_transaction: { value: { display_data: missing } } }) },
      PSD2_SHAPE,
    );
  });

  it('refuses a non-string or empty display_data field (invalid_request)', async () => {
    for (const payee of [12, '', null]) {
      await assertInvalidRequest(
        { claims: claims({ svc_psd2_transaction: { value: { display_data: { ...psd2, payee } } } }) },
        PSD2_SHAPE,
      );
    }
  });

  it('refuses a request without value, or null (invalid_request)', async () => {
    for (const member of [null, { essential: true }, { display_data: psd2 }]) {
      await assertInvalidRequest({ claims: claims({ svc_psd2_transaction: member }) }, PSD2_SHAPE);
    }
  });
});

describe('claims: svc_approval', () => {
  const attribute = { label: 'Amount', value: '€ 5' };

  it('defaults a missing icon to Payment and keeps main_attribute and additional_data', async () => {
    const displayData = {
      main_attribute: { label: 'Contract', value: 'No. 42' },
      attributes: [attribute, { ...attribute, icon: 'Calendar' }],
    };
    const { request } = await parse({
      claims: claims({ svc_approval: { value: { display_data: displayData, additional_data: { ref: 7 } } } }),
    });
    assert.deepEqual(request.claims, {
      approval: {
        display_data: {
          ...displayData,
          attributes: [
            { ...attribute, icon: 'Payment' },
            { ...attribute, icon: 'Calendar' },
          ],
        },
        additional_data: { ref: 7 },
      },
    });
  });

  it('accepts every icon of spec 4.2', async () => {
    for (const icon of [
      'Payment',
      'Locations',
      'Contract',
      'Email',
      'SmartPhone',
      'Id',
      'Edit',
      'Calendar',
      'Lock',
      'Globe',
    ]) {
      const { request } = await parse({ claims: approvalWith({ attributes: [{ ...attribute, icon }] }) });
      assert.equal(request.claims?.approval?.display_data.attributes[0]?.icon, icon);
    }
  });

  it('refuses more than 2 attributes (invalid_request)', async () => {
    await assertInvalidRequest(
      { claims: approvalWith({ attributes: [attribute, attribute, attribute] }) },
      APPROVAL_SHAPE,
    );
  });

  it('refuses missing attributes, an unknown icon, a bad main_attribute or additional_data that is no object', async () => {
    const bad = [
      approvalWith({ main_attribute: attribute }),
      approvalWith({ attributes: [{ ...attribute, icon: 'Rocket' }] }),
      approvalWith({ attributes: [{ label: 'Amount' }] }),
      approvalWith({ main_attribute: { label: 'x' }, attributes: [] }),
      claims({ svc_approval: { value: { display_data: { attributes: [] }, additional_data: 'text' } } }),
    ];
    for (const value of bad) await assertInvalidRequest({ claims: value }, APPROVAL_SHAPE);
  });
});

describe('claims: everything else', () => {
  it('accepts standard id_token and userinfo claims (OIDC Core 5.5): answerable names kept, unknown ones ignored', async () => {
    const { request } = await parse({
      claims: JSON.stringify({
        id_token: { email: { essential: true }, auth_time: null, acr: { values: ['x'] }, nickname: null },
        userinfo: { email: null, phone_number: { essential: false }, picture: null },
        other_member: { ignored: true },
      }),
    });
    assert.deepEqual(request.claims, {
      idToken: ['email', 'auth_time', 'acr'],
      userinfo: ['email', 'phone_number'],
    });
    const withSvc = await parse({
      claims: claims({ svc_approval: { value: { display_data: { attributes: [] } } }, acr: null }),
    });
    assert.deepEqual(withSvc.request.claims, {
      approval: { display_data: { attributes: [] } },
      idToken: ['acr'],
    });
  });

  it('keeps sid, a name of claims_supported, like the other answerable ID token claims', async () => {
    const { request } = await parse({ claims: claims({ sid: { essential: true } }) });
    assert.deepEqual(request.claims, { idToken: ['sid'] });
  });

  it('keeps the value and values of email and phone claims by member; other claims’ values are not kept', async () => {
    const { request } = await parse({
      claims: JSON.stringify({
        id_token: { email: { essential: true, value: 'ada@example.com' }, acr: { values: ['x'] } },
        userinfo: { phone_number_verified: { value: true }, email_verified: { values: [true, false] } },
      }),
    });
    assert.deepEqual(request.claims?.values, {
      idToken: { email: ['ada@example.com'] },
      userinfo: { phone_number_verified: [true], email_verified: [true, false] },
    });
  });

  it('uses an email claim value as the login hint when no login_hint is given', async () => {
    const byValue = JSON.stringify({ id_token: { email: { essential: true, value: 'Ada@Example.com' } } });
    assert.equal((await parse({ claims: byValue })).request.loginHint, 'Ada@Example.com');
    const both = await parse({ claims: byValue, login_hint: 'bob@example.com' });
    assert.equal(both.request.loginHint, 'bob@example.com');
    const notEmail = JSON.stringify({ userinfo: { email: { value: 'not an email' } } });
    assert.equal((await parse({ claims: notEmail })).request.loginHint, undefined);
  });

  it('refuses a malformed claim request (invalid_request) and a transaction in userinfo', async () => {
    const badMember =
      'claims members must be null or an object with essential (true or false), value, values (an array)';
    for (const value of [
      JSON.stringify({ id_token: { email: { essential: 'yes' } } }),
      JSON.stringify({ userinfo: { email: true } }),
      JSON.stringify({ userinfo: { email: { values: 'a' } } }),
    ])
      await assertRedirected(parse({ claims: value }), 'invalid_request', badMember);
    for (const value of [
      JSON.stringify([]),
      JSON.stringify({ id_token: 'svc_approval' }),
      JSON.stringify({ userinfo: [] }),
    ])
      await assertRedirected(parse({ claims: value }), 'invalid_request', NOT_AN_OBJECT);
    await assertRedirected(
      parse({
        claims: JSON.stringify({
          userinfo: { svc_approval: { value: { display_data: { attributes: [] } } } },
        }),
      }),
      'invalid_request',
      'claims svc_psd2_transaction and svc_approval may only be requested in id_token',
    );
  });

  it('refuses claims that are not JSON (invalid_request)', async () => {
    await assertInvalidRequest({ claims: '{id_token:' }, 'claims must be a JSON object');
  });

  it('refuses claims longer than 16384 characters (invalid_request)', async () => {
    const big = claims({
      svc_psd2_transaction: { value: { display_data: psd2, additional_data: 'x'.repeat(16384) } },
    });
    await assertInvalidRequest({ claims: big }, 'claims must be at most 16384 characters');
  });

  it('returns no claims for an empty id_token request', async () => {
    assert.equal('claims' in (await parse({ claims: claims({}) })).request, false);
  });
});
