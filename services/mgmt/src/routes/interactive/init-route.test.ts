import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { interactiveAuthorization, interactiveSignature } from '@sesame/platform';

/** A header for the body it will travel with (the signature covers the body: docs/interactive-init.md). */
type Signer = (body: string) => string;
import { type MgmtHarness, startMgmt } from '../../testing/mgmt-harness';

type App = { appId: string; clientId: string; clientSecret?: string };
const PATH = '/api/v1/interactive/init';
const REDIRECT = 'https://shop.example/devices/done';
const FAR = 4_000_000_000;
const body = { redirect_uri: REDIRECT, purpose: 'device_enrollment', state: 's-1' };

describe('POST {api_url}/api/v1/interactive/init', () => {
  let h: MgmtHarness;
  let tenantId: string;
  let shop: App;
  let other: App;
  let spa: App;
  const init = (
    authorization: string | Signer | undefined,
    payload: unknown = body,
    contentType = 'application/json',
  ) => {
    const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
    const header = typeof authorization === 'function' ? authorization(text) : authorization;
    return fetch(`${h.url}${PATH}`, {
      method: 'POST',
      headers: { ...(header ? { authorization: header } : {}), 'content-type': contentType },
      body: text,
    });
  };
  /** Signs at the harness clock's time with a fresh nonce. */
  const sign =
    (
      token: string,
      secret: string,
      extra: { timestamp?: number; nonce?: string; path?: string } = {},
    ): Signer =>
    (text) =>
      interactiveAuthorization(
        { accessToken: token, body: text, timestamp: Math.floor(h.clock.now() / 1000), ...extra },
        secret,
      );
  const userToken = (token: string, app: App, extra: Record<string, unknown> = {}) =>
    h.peers.tokens.set(token, {
      tenantId,
      credentialsId: '',
      scope: 'openid email',
      expiresAt: FAR,
      sub: 'user-1',
      clientId: app.clientId,
      ...extra,
    });
  const signed = (token: string) => sign(token, shop.clientSecret!);
  const errorOf = async (res: Response) =>
    ((await res.json()) as { status: string; error: { code: string; message: string; fields?: object } })
      .error;

  beforeAll(async () => {
    h = await startMgmt();
    tenantId = (
      (await (await h.admin('POST', '/api/v1/admin/tenants', { name: 'T' })).json()) as App & {
        tenantId: string;
      }
    ).tenantId;
    const create = async (extra: object) =>
      await h.createApp<App>(tenantId, {
        name: 'App',
        redirectUris: [REDIRECT, 'https://shop.example/cb'],
        ...extra,
      });
    shop = await create({});
    other = await create({});
    spa = await create({ public: true, redirectUris: ['http://localhost:3000/cb'] });
    userToken('tok-user', shop);
    userToken('tok-user-2', shop);
    userToken('tok-other', other);
    userToken('tok-spa', spa);
    userToken('tok-revoked', shop, { active: false });
    userToken('tok-expired', shop, { expiresAt: Math.floor(h.clock.now() / 1000) - 1 });
    userToken('tok-gone', shop, { sub: 'gone-user' });
    h.peers.tokens.set('tok-cc', {
      tenantId,
      credentialsId: 'cred-1',
      scope: 'svc_admin_api',
      expiresAt: FAR,
    });
  });
  afterAll(() => h.stop());

  const refused = async (res: Response, code: string) => {
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Sesame realm="sesame-interactive"/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const error = await errorOf(res);
    assert.equal(error.code, code);
    return error;
  };

  it('answers exactly {status_code, data: {url}} and asks auth for the flow of the token’s user and app', async () => {
    const before = h.peers.interactiveFlows.length;
    const res = await init(signed('tok-user'), { ...body, data: { anything: [1, 2] } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const url = `https://auth.example/enroll/link-${before + 1}`;
    assert.deepEqual(await res.json(), { status_code: '200', data: { url } });
    assert.deepEqual(h.peers.interactiveFlows.at(-1), {
      tenantId,
      appId: shop.appId,
      clientId: shop.clientId,
      userId: 'user-1',
      purpose: 'device_enrollment',
      redirectUri: REDIRECT,
      state: 's-1',
    });
  });

  it('401 without an Authorization header, with a bare challenge', async () => {
    const res = await init(undefined);
    await refused(res, 'unauthorized');
    assert.equal(res.headers.get('www-authenticate'), 'Sesame realm="sesame-interactive"');
  });

  it('401 for any other scheme or shape of the header, never repeating it', async () => {
    const sig = signed('tok-user')(JSON.stringify(body)).split('; ')[1]!;
    for (const header of [
      'Bearer tok-user',
      `Basic ${Buffer.from(`${shop.clientId}:${shop.clientSecret}`).toString('base64')}`,
      `Sesame tok-user; ${sig}`,
      `Sesame AccessToken tok-user;${sig}`,
      `Sesame AccessToken tok-user; ${sig}; more`,
      'Sesame AccessToken tok-user',
      'Sesame AccessToken tok-user; <script>',
    ]) {
      const res = await init(header);
      const error = await refused(res, 'invalid_request');
      assert.match(error.message, /Sesame AccessToken <access_token>; <signature>/);
      assert.match(
        res.headers.get('www-authenticate') ?? '',
        /error="invalid_request", error_description="[^"]*'Sesame AccessToken/,
      );
      assert.ok(!error.message.includes('tok-user'));
    }
  });

  it('401 for a wrong signature: another secret, or the right secret over another token', async () => {
    await refused(await init(sign('tok-user', other.clientSecret!)), 'invalid_signature');
    const overOther = signed('tok-user-2')(JSON.stringify(body)).split('; ')[1]!;
    await refused(await init(`Sesame AccessToken tok-user; ${overOther}`), 'invalid_signature');
  });

  it('401 for a client_credentials token, even signed with a real secret', async () => {
    await refused(await init(signed('tok-cc')), 'invalid_token');
  });

  it('401 for a revoked, an expired and an unknown token', async () => {
    for (const token of ['tok-revoked', 'tok-expired', 'tok-unknown']) {
      await refused(await init(signed(token)), 'invalid_token');
    }
  });

  it('401 for another app’s token signed with this app’s secret', async () => {
    await refused(await init(signed('tok-other')), 'invalid_signature');
  });

  it('401 for a public app’s token: it has no secret to sign with', async () => {
    const error = await refused(await init(signed('tok-spa')), 'invalid_client');
    assert.match(error.message, /public client/);
  });

  it('401 when the token’s user no longer exists at auth', async () => {
    await refused(await init(signed('tok-gone')), 'invalid_token');
  });

  it('401 with a stale signature after the secret was rotated; the new secret signs', async () => {
    const app = await h.createApp<App>(tenantId, {
      name: 'Rotating',
      redirectUris: [REDIRECT],
    });
    userToken('tok-rotating', app);
    const stale = sign('tok-rotating', app.clientSecret!);
    assert.equal((await init(stale)).status, 200);
    const rotated = await h.admin(
      'POST',
      `/api/v1/admin/tenants/${tenantId}/applications/${app.appId}/client-secret`,
    );
    assert.equal(rotated.status, 200);
    const { clientSecret } = (await rotated.json()) as { clientSecret: string };
    await refused(await init(stale), 'invalid_signature');
    assert.equal((await init(sign('tok-rotating', clientSecret))).status, 200);
  });

  it('401 telling the admin to rotate the secret for an app created before sealed copies existed', async () => {
    const app = await h.createApp<App>(tenantId, {
      name: 'Old',
      redirectUris: [REDIRECT],
    });
    const stored = await h.dir.applications.get(tenantId, app.appId);
    const { clientSecretSealed: _dropped, ...legacy } = stored!;
    await h.dir.applications.remove(tenantId, app.appId);
    await h.dir.applications.create(legacy);
    userToken('tok-legacy', app);
    const error = await refused(await init(sign('tok-legacy', app.clientSecret!)), 'invalid_client');
    assert.match(error.message, /rotate the secret/);
    assert.match(error.message, /\/client-secret/);
  });

  describe('400 for every body rule (after a valid Authorization)', () => {
    const cases: Array<[string, unknown, string]> = [
      ['redirect_uri missing', { purpose: 'device_enrollment' }, 'redirect_uri'],
      ['redirect_uri not a string', { ...body, redirect_uri: 42 }, 'redirect_uri'],
      ['redirect_uri empty', { ...body, redirect_uri: '' }, 'redirect_uri'],
      ['redirect_uri not registered', { ...body, redirect_uri: 'https://evil.example/cb' }, 'redirect_uri'],
      ['redirect_uri a near miss', { ...body, redirect_uri: `${REDIRECT}/` }, 'redirect_uri'],
      ['redirect_uri of another case', { ...body, redirect_uri: REDIRECT.toUpperCase() }, 'redirect_uri'],
      [
        'redirect_uri over 2048 characters',
        { ...body, redirect_uri: `${REDIRECT}?${'a'.repeat(2048)}` },
        'redirect_uri',
      ],
      ['purpose missing', { redirect_uri: REDIRECT }, 'purpose'],
      ['purpose other than device_enrollment', { ...body, purpose: 'registration' }, 'purpose'],
      ['purpose not a string', { ...body, purpose: ['device_enrollment'] }, 'purpose'],
      ['state not a string', { ...body, state: 7 }, 'state'],
      ['state over 2048 characters', { ...body, state: 'a'.repeat(2049) }, 'state'],
      ['data not an object', { ...body, data: 'x' }, 'data'],
      ['data an array', { ...body, data: [1] }, 'data'],
      ['an unknown field', { ...body, extra: true }, '(body)'],
      ['a body that is not an object', [body], '(body)'],
    ];
    it.each(cases)('%s', async (_name, payload, field) => {
      const before = h.peers.interactiveFlows.length;
      const res = await init(signed('tok-user'), payload);
      assert.equal(res.status, 400);
      const error = await errorOf(res);
      assert.equal(error.code, 'invalid_request');
      assert.ok(error.fields && field in error.fields, JSON.stringify(error));
      assert.equal(h.peers.interactiveFlows.length, before, 'auth was not asked');
    });

    it('malformed JSON', async () => {
      const res = await init(signed('tok-user'), '{"redirect_uri":');
      assert.equal(res.status, 400);
      assert.equal((await errorOf(res)).code, 'invalid_request');
    });
  });

  it('checks the caller before the body: a bad body without a valid header is a 401', async () => {
    await refused(await init(undefined, { purpose: 'nope' }), 'unauthorized');
  });

  it('never shows the sealed secret copy in the admin API', async () => {
    const stored = await h.dir.applications.get(tenantId, shop.appId);
    assert.ok(stored?.clientSecretSealed);
    const listed = await (await h.admin('GET', `/api/v1/admin/tenants/${tenantId}/applications`)).text();
    const got = await (
      await h.admin('GET', `/api/v1/admin/tenants/${tenantId}/applications/${shop.appId}`)
    ).text();
    for (const text of [listed, got]) {
      assert.ok(!text.includes(stored.clientSecretSealed));
      assert.ok(!text.includes(shop.clientSecret!));
    }
  });

  // Issue 26 finding 5: the signature was HMAC(secret, token) alone, a bearer credential for the token's hour.
  describe('the signature binds one request, once, now', () => {
    it('a captured header used again is refused (replayed_signature), even within the window', async () => {
      const header = signed('tok-user')(JSON.stringify(body));
      assert.equal((await init(header)).status, 200);
      const before = h.peers.interactiveFlows.length;
      await refused(await init(header), 'replayed_signature');
      assert.equal(h.peers.interactiveFlows.length, before, 'no second URL');
    });

    it('a timestamp more than 120 s away either way is refused (expired_signature)', async () => {
      const now = Math.floor(h.clock.now() / 1000);
      await refused(
        await init(sign('tok-user', shop.clientSecret!, { timestamp: now - 121 })),
        'expired_signature',
      );
      await refused(
        await init(sign('tok-user', shop.clientSecret!, { timestamp: now + 121 })),
        'expired_signature',
      );
      assert.equal((await init(sign('tok-user', shop.clientSecret!, { timestamp: now - 119 }))).status, 200);
    });

    it('a header signed for another body or another path is refused (invalid_signature)', async () => {
      const other = { ...body, redirect_uri: 'https://shop.example/cb' };
      const forOther = signed('tok-user')(JSON.stringify(other));
      await refused(await init(forOther, body), 'invalid_signature');
      await refused(
        await init(sign('tok-user', shop.clientSecret!, { path: '/api/v1/other' })),
        'invalid_signature',
      );
    });

    it('the worked example of the signing string: method, path, timestamp, nonce, token, body hash', () => {
      const request = {
        method: 'POST',
        path: PATH,
        timestamp: 1_767_225_600,
        nonce: 'bm9uY2UtMDEyMzQ1Njc4OQ',
        accessToken: 'tok-user',
        body: '{}',
      };
      assert.equal(
        interactiveAuthorization(request, 'k'),
        `Sesame AccessToken tok-user; t=1767225600,n=bm9uY2UtMDEyMzQ1Njc4OQ,s=${interactiveSignature(request, 'k')}`,
      );
    });
  });

  it('401 for a user removed from the app (remove user), whose token is still live', async () => {
    userToken('tok-removed', shop, { sub: 'removed-user' });
    h.peers.removedUsers.add('removed-user');
    const before = h.peers.interactiveFlows.length;
    const error = await refused(await init(signed('tok-removed')), 'invalid_token');
    assert.match(error.message, /no longer a member/);
    assert.equal(h.peers.interactiveFlows.length, before, 'no URL was made');
  });
});
