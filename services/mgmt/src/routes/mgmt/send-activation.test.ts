import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { users } from '@sesame/proto';
import { startedForSuite } from '@sesame/testing/suite';
import {
  type ApiTenant as Tenant,
  expectMgmtError as expectError,
  startMgmt,
} from '../../testing/mgmt-harness';

type Body = Record<string, unknown>;
type ErrorBody = Awaited<ReturnType<typeof expectError>>;

describe('POST /api/v1/mgmt/send-activation', () => {
  const h = startedForSuite(() => startMgmt());
  let a: Tenant;
  let b: Tenant;
  let bare: Tenant;

  const tenant = (name: string, app: Body) => h.apiTenant(name, app);

  const valid = (t: Tenant, over: Body = {}): Body => ({
    clientId: t.clientId,
    credentialsId: t.credentialsId,
    userEmail: 'ada@example.com',
    scopes: ['email'],
    verifications: ['ts.svc.iac.email'],
    alias: { type: 'alias', value: 'ada-1' },
    ...over,
  });

  function send(body: unknown, token = a.token) {
    return fetch(`${h.url}/api/v1/mgmt/send-activation`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  beforeAll(async () => {
    const app = {
      redirectUris: ['https://shop.example/cb', 'https://shop.example/welcome'],
      registrationRedirectUri: 'https://shop.example/registered',
      allowedScopes: ['openid', 'email'],
    };
    a = await tenant('a', { ...app, registrationLinkExpiresIn: 600 });
    b = await tenant('b', app);
    bare = await tenant('bare', { redirectUris: ['https://bare.example/cb'] });
  });

  it('401 without a bearer token, or with one that is not valid; nothing is sent', async () => {
    const none = await send(valid(a), '');
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="sesame-mgmt"');
    await expectError(none, 401, 'unauthorized');
    await expectError(await send(valid(a), 'not-a-token'), 401, 'invalid_token');
    assert.equal(h.peers.activationCalls.length, 0);
  });

  it('200: the spec’s response, and Users.CreateActivationLink asked with the app’s facts', async () => {
    const res = await send(
      valid(a, {
        userEmail: ' Ada@Example.com ',
        customMessage: 'Welcome!',
        secondaryCompletionMessage: 'Go back to your computer.',
        completionMessage: {
          text: 'Done.',
          link: { redirectUri: 'HTTPS://SHOP.example:443/welcome', label: 'Open the shop' },
        },
      }),
    );
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await res.json(), {
      status: 'success',
      activationResult: {
        channelsResult: [{ channelType: 'email', target: 'ada@example.com', status: 'sent' }],
      },
    });
    const call = h.peers.activationCalls.at(-1);
    assert.deepEqual(call, {
      tenantId: a.tenantId,
      appId: a.appId,
      clientId: a.clientId,
      appName: 'a',
      registrationRedirectUri: 'https://shop.example/registered',
      userEmail: 'ada@example.com',
      scopes: ['email'],
      verifications: ['ts.svc.iac.email'],
      aliasType: users.ActivationAliasType.ACTIVATION_ALIAS_TYPE_ALIAS,
      aliasValue: 'ada-1',
      confirmedUser: true,
      customMessage: 'Welcome!',
      secondaryCompletionMessage: 'Go back to your computer.',
      completionText: 'Done.',
      completionLink: { redirectUri: 'https://shop.example/welcome', label: 'Open the shop' },
      expiresInS: 600,
      clientIp: call?.clientIp,
    });
    assert.match(call?.clientIp ?? '', /127\.0\.0\.1/);
  });

  it('200 without alias when confirmedUser is false; empty scopes and verifications are allowed', async () => {
    const res = await send(
      valid(b, { alias: undefined, confirmedUser: false, scopes: [], verifications: [] }),
      b.token,
    );
    assert.equal(res.status, 200);
    const call = h.peers.activationCalls.at(-1);
    assert.equal(call?.confirmedUser, false);
    assert.equal(call?.aliasType, users.ActivationAliasType.ACTIVATION_ALIAS_TYPE_UNSPECIFIED);
    assert.equal(call?.expiresInS, 0, 'no app setting: auth’s default');
  });

  it('the app’s registrationLinkExpiresIn (admin API, 60 s to 7 days; null clears it) is the link’s lifetime', async () => {
    const path = `/api/v1/admin/tenants/${b.tenantId}/applications/${b.appId}`;
    for (const bad of [59, 604_801, 1.5, '600']) {
      assert.equal(
        (await h.admin('PATCH', path, { registrationLinkExpiresIn: bad })).status,
        400,
        String(bad),
      );
    }
    const set = await h.admin('PATCH', path, { registrationLinkExpiresIn: 3600 });
    assert.equal(((await set.json()) as Body).registrationLinkExpiresIn, 3600);
    await send(valid(b, { alias: { type: 'email' } }), b.token);
    assert.equal(h.peers.activationCalls.at(-1)?.expiresInS, 3600);
    await h.admin('PATCH', path, { registrationLinkExpiresIn: null });
    await send(valid(b, { alias: { type: 'email' } }), b.token);
    assert.equal(h.peers.activationCalls.at(-1)?.expiresInS, 0);
  });

  it('400 invalid_request: malformed JSON, or a body that is not an object', async () => {
    await expectError(await send('{"clientId":'), 400, 'invalid_request');
    await expectError(await send([]), 400, 'invalid_request');
    await expectError(await send('"text"'), 400, 'invalid_request');
    await expectError(await send(valid(a, { customMessage: 'x'.repeat(20_000) })), 413, 'invalid_request');
  });

  it.each([
    ['clientId missing', { clientId: undefined }, 'clientId'],
    ['clientId empty', { clientId: '' }, 'clientId'],
    ['clientId not a string', { clientId: 7 }, 'clientId'],
    ['credentialsId missing', { credentialsId: undefined }, 'credentialsId'],
    ['userEmail missing', { userEmail: undefined }, 'userEmail'],
    ['userEmail not an address', { userEmail: 'ada' }, 'userEmail'],
    ['userEmail too long', { userEmail: `${'a'.repeat(250)}@example.com` }, 'userEmail'],
    ['scopes missing', { scopes: undefined }, 'scopes'],
    ['scopes not an array', { scopes: 'email' }, 'scopes'],
    ['scopes with a value other than email or phone', { scopes: ['openid'] }, 'scopes.0'],
    ['scopes repeated', { scopes: ['email', 'email'] }, 'scopes'],
    ['verifications missing', { verifications: undefined }, 'verifications'],
    ['verifications with an unknown value', { verifications: ['ts.svc.iac.fax'] }, 'verifications.0'],
    ['verifications repeated', { verifications: ['ts.svc.iac.email', 'ts.svc.iac.email'] }, 'verifications'],
    ['alias missing (confirmedUser unspecified)', { alias: undefined }, 'alias'],
    ['alias missing with confirmedUser true', { alias: undefined, confirmedUser: true }, 'alias'],
    ['alias not an object', { alias: 'ada' }, 'alias'],
    ['alias.type missing', { alias: { value: 'ada' } }, 'alias.type'],
    ['alias.type unknown', { alias: { type: 'phone' } }, 'alias.type'],
    ['alias.value missing for type alias', { alias: { type: 'alias' } }, 'alias.value'],
    ['alias.value empty for type alias', { alias: { type: 'alias', value: '' } }, 'alias.value'],
    ['alias.value given for type email', { alias: { type: 'email', value: 'x' } }, 'alias.value'],
    ['alias.value given for type none', { alias: { type: 'none', value: 'x' } }, 'alias.value'],
    ['confirmedUser not a boolean', { confirmedUser: 'yes' }, 'confirmedUser'],
    ['customMessage not a string', { customMessage: 5 }, 'customMessage'],
    ['customMessage too long', { customMessage: 'x'.repeat(1001) }, 'customMessage'],
    [
      'secondaryCompletionMessage not a string',
      { secondaryCompletionMessage: {} },
      'secondaryCompletionMessage',
    ],
    ['completionMessage not an object', { completionMessage: 'Done' }, 'completionMessage'],
    ['completionMessage.text missing', { completionMessage: {} }, 'completionMessage.text'],
    [
      'completionMessage.link.redirectUri missing',
      { completionMessage: { text: 'Done', link: { label: 'Go' } } },
      'completionMessage.link.redirectUri',
    ],
    [
      'completionMessage.link.label missing',
      { completionMessage: { text: 'Done', link: { redirectUri: 'https://shop.example/cb' } } },
      'completionMessage.link.label',
    ],
    [
      'completionMessage.link.redirectUri not one of the app’s redirect URIs',
      { completionMessage: { text: 'Done', link: { redirectUri: 'https://evil.example/cb', label: 'Go' } } },
      'completionMessage.link.redirectUri',
    ],
    [
      'completionMessage.link.redirectUri a prefix of a registered one',
      { completionMessage: { text: 'Done', link: { redirectUri: 'https://shop.example/c', label: 'Go' } } },
      'completionMessage.link.redirectUri',
    ],
  ])('400 invalid_request: %s', async (_, over, field) => {
    const calls = h.peers.activationCalls.length;
    await expectError(await send(valid(a, over)), 400, 'invalid_request', field);
    assert.equal(h.peers.activationCalls.length, calls);
  });

  it('400 invalid_scope: a scope the application is not allowed', async () => {
    await expectError(await send(valid(a, { scopes: ['email', 'phone'] })), 400, 'invalid_scope', 'scopes');
  });

  it('400 missing_registrationRedirectUri when the application has none, saying so', async () => {
    const body = await expectError(
      await send(valid(bare), bare.token),
      400,
      'missing_registrationRedirectUri',
    );
    assert.match(body.error.message, /registration redirect URI/);
  });

  it('403 forbidden: credentialsId not the token’s, clientId of another tenant, or unknown (same answer)', async () => {
    const calls = h.peers.activationCalls.length;
    await expectError(await send(valid(a, { credentialsId: b.credentialsId })), 403, 'forbidden');
    const other = await send(valid(a, { clientId: b.clientId }));
    const unknown = await send(valid(a, { clientId: 'no-such-client' }));
    const [otherBody, unknownBody] = [await other.json(), await unknown.json()];
    assert.equal(other.status, 403);
    assert.equal(unknown.status, 403);
    assert.deepEqual(otherBody, unknownBody);
    assert.match((otherBody as ErrorBody).error.message, /clientId/);
    assert.equal(h.peers.activationCalls.length, calls, 'nothing sent');
  });

  it('409 alias_taken when another user of the app holds the alias', async () => {
    h.peers.takenAliases.add('taken');
    await expectError(
      await send(valid(a, { alias: { type: 'alias', value: 'taken' } })),
      409,
      'alias_taken',
      'alias.value',
    );
  });

  it('429 too_many_requests with Retry-After when auth refuses a mail over its limit (issue 26)', async () => {
    const body = valid(a);
    h.peers.limitedAddresses.add(String(body.userEmail));
    try {
      const res = await send(body);
      assert.equal(res.headers.get('retry-after'), '840');
      await expectError(res, 429, 'too_many_requests');
    } finally {
      h.peers.limitedAddresses.clear();
    }
  });
});
