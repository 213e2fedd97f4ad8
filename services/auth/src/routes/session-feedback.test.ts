import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type FeedbackAuth, startFeedbackAuth } from '../testing/session-feedback';
import { startedForSuite } from '../testing/suite';

/** The JSON answers: RFC 6750's {error, error_description} (401) or the management error object (400, 409). */
type Answer = {
  status?: string;
  error?: string & { code?: string; fields?: Record<string, string> };
  error_description?: string;
};
const json = async (res: Response) => [res.status, (await res.json()) as Answer] as const;

describe('POST /session-feedback: who may call it (RFC 6750)', () => {
  let auth: FeedbackAuth;
  beforeAll(async () => {
    auth = await startFeedbackAuth();
    await auth.emailSignIn('caller@example.com');
  });
  afterAll(() => auth.stop());

  it('no Authorization: 401 with a bare Bearer challenge (no error code) and confirms nothing', async () => {
    const res = await auth.feedback(undefined, { alias: 'x' });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="sesame"');
    assert.equal(((await res.json()) as Answer).error, 'invalid_token');
  });

  it('a malformed Authorization (Basic, empty bearer, two tokens): 401 invalid_token', async () => {
    for (const header of ['Basic dXNlcjpwYXNz', 'Bearer ', 'Bearer a b', 'tok-1']) {
      const res = await auth.feedback(undefined, {}, { authorization: header });
      assert.equal(res.status, 401, header);
      assert.match(
        res.headers.get('www-authenticate') ?? '',
        /^Bearer realm="sesame", error="invalid_token"/,
      );
    }
  });

  it('an unknown, expired or revoked token (introspection inactive): 401 invalid_token', async () => {
    const [status, body] = await json(await auth.feedback('never-issued', {}));
    assert.equal(status, 401);
    assert.deepEqual(body, {
      error: 'invalid_token',
      error_description: 'the access token is unknown, expired or revoked',
    });
  });

  it('a client_credentials token (kind api, no user): 401', async () => {
    const token = auth.accessTokenFor(undefined, { kind: 'api', sub: '', appId: '', login: undefined });
    const [status, body] = await json(await auth.feedback(token, {}));
    assert.equal(status, 401);
    assert.match(body.error_description ?? '', /client_credentials/);
  });

  it('a user token naming no login: 401', async () => {
    const token = auth.accessTokenFor(undefined, { login: undefined });
    assert.equal((await auth.feedback(token, {})).status, 401);
  });

  it('a token of another app (not the app of the token’s client, or an app the user is not a member of): 401', async () => {
    const otherApp = auth.accessTokenFor(undefined, { appId: 'app-2' });
    const [status, body] = await json(await auth.feedback(otherApp, {}));
    assert.equal(status, 401);
    assert.equal(body.error_description, 'the application of the access token no longer exists');
    const otherTenant = auth.accessTokenFor(undefined, { tenantId: 'tenant-2' });
    assert.equal((await auth.feedback(otherTenant, {})).status, 401);
    const unknownClient = auth.accessTokenFor(undefined, { clientId: 'gone' });
    assert.equal((await auth.feedback(unknownClient, {})).status, 401);
    const stranger = auth.accessTokenFor(undefined, { sub: '00000000-0000-4000-8000-000000000000' });
    const [s2, b2] = await json(await auth.feedback(stranger, {}));
    assert.equal(s2, 401);
    assert.equal(b2.error_description, 'the user of the access token is not a member of its application');
    const sub = auth.issued.at(-1)!.claims!.sub;
    assert.equal((await auth.users.memberships.get('tenant-1', 'app-1', sub))?.confirmed, false);
  });

  it('a token from before the user was removed from the app (DELETE users) cannot confirm the new membership', async () => {
    const { browser } = await auth.emailSignIn('removed@example.com');
    const old = auth.accessTokenFor();
    const sub = auth.issued.at(-1)!.claims!.sub;
    await auth.users.memberships.remove('tenant-1', sub, 'app-1');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await auth.emailSignIn('removed@example.com', browser);
    const [status, body] = await json(await auth.feedback(old, {}));
    assert.equal(status, 401);
    assert.match(body.error_description ?? '', /predates the membership/);
    assert.equal((await auth.users.memberships.get('tenant-1', 'app-1', sub))?.confirmed, false);
    assert.equal((await auth.feedback(auth.accessTokenFor(), {})).status, 200, 'the new login’s token may');
  });

  it('GET: 405 with Allow POST', async () => {
    const res = await fetch(`${auth.base}/session-feedback`);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
  });
});

describe('POST /session-feedback: the body', () => {
  let auth: FeedbackAuth;
  let token: string;
  beforeAll(async () => {
    auth = await startFeedbackAuth();
    await auth.emailSignIn('body@example.com');
    token = auth.accessTokenFor();
  });
  afterAll(() => auth.stop());

  it('bad JSON, a non-object, a non-string, empty, padded or control-character alias, unknown members: 400 (management error object)', async () => {
    const bad = [
      '{"alias":',
      '[]',
      '"alice"',
      '{"alias":42}',
      '{"alias":null}',
      '{"alias":""}',
      '{"alias":"a\\u0000b"}',
      '{"alias":" padded"}',
      '{"alias":"padded\\n"}',
    ];
    for (const body of [...bad, '{"alias":"a","admin":true}', JSON.stringify({ alias: 'x'.repeat(201) })]) {
      const [status, answer] = await json(await auth.feedback(token, body));
      assert.equal(status, 400, body);
      assert.equal(answer.status, 'error');
      assert.equal(answer.error?.code, 'invalid_request');
    }
    const [, typed] = await json(await auth.feedback(token, '{"alias":42}'));
    assert.deepEqual(typed.error?.fields, { alias: 'must be a string' });
  });

  it('a body that is not application/json: 400', async () => {
    const res = await auth.feedback(token, undefined, { 'content-type': 'text/plain' });
    assert.equal(res.status, 200, 'no body at all is {}');
    const text = await fetch(`${auth.base}/session-feedback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: 'alias=x',
    });
    assert.equal(text.status, 400);
  });

  it('a body over 4 KB: 400, not a 500', async () => {
    const res = await auth.feedback(token, JSON.stringify({ alias: 'x'.repeat(5000) }));
    assert.equal(res.status, 400);
  });

  it('a bad body with a bad token: 401 first (the token is checked before the body)', async () => {
    assert.equal((await auth.feedback('nope', '{')).status, 401);
  });
});

describe('POST /session-feedback: the confirmation', () => {
  const auth = startedForSuite(() => startFeedbackAuth());

  it('200 {status: success}; the membership is confirmed, the login’s device bound, the alias set; rp_feedback_provided with the alias on the login’s flow', async () => {
    const { flow } = await auth.emailSignIn('confirm@example.com');
    const issued = auth.issued.at(-1)!;
    const res = await auth.feedback(auth.accessTokenFor(), { alias: 'alice' });
    assert.deepEqual(await json(res), [200, { status: 'success' }]);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const m = await auth.users.memberships.get('tenant-1', 'app-1', issued.claims!.sub);
    assert.equal(m?.confirmed, true);
    assert.equal(m?.alias, 'alice');
    assert.deepEqual(m?.boundDevices, [issued.login!.deviceId]);
    assert.equal(m?.boundCredentials, undefined);
    assert.equal(m?.firstConfirmedLoginAt, issued.login!.loginAt);
    const flowId = flow.replace('/flow/', '');
    assert.equal(issued.login!.flowId, flowId);
    const event = auth.eventsOf(flowId).find((e) => e.action === 'rp_feedback_provided');
    assert.equal(event?.userAlias, 'alice');
    assert.equal(event?.userId, issued.claims!.sub);
  });

  it('the next login carries capp_first_confirmed_login and svc_alias; the one after only svc_alias', async () => {
    const first = await auth.emailSignIn('next@example.com');
    const confirmedAt = auth.issued.at(-1)!.login!.loginAt;
    assert.equal((await auth.feedback(auth.accessTokenFor(), { alias: 'nx' })).status, 200);
    await auth.emailSignIn('next@example.com', first.browser);
    const second = auth.issued.at(-1)!.claims!;
    assert.equal(second.svcInfo?.cappFirstConfirmedLogin, Math.floor(confirmedAt / 1000));
    assert.equal(second.alias, 'nx');
    await auth.emailSignIn('next@example.com', first.browser);
    const third = auth.issued.at(-1)!.claims!;
    assert.equal(third.svcInfo?.cappFirstConfirmedLogin, undefined);
    assert.equal(third.alias, 'nx');
  });

  it('acr ts.svc.app_bound_cred on later logins with the bound device only, not from another browser', async () => {
    const first = await auth.emailSignIn('acr@example.com');
    assert.ok(!auth.issued.at(-1)!.claims!.acr.includes('ts.svc.app_bound_cred'), 'not before feedback');
    await auth.feedback(auth.accessTokenFor(), {});
    await auth.emailSignIn('acr@example.com', first.browser);
    assert.deepEqual(auth.issued.at(-1)!.claims!.acr, ['ts.svc.iac.email', 'ts.svc.app_bound_cred']);
    await auth.emailSignIn('acr@example.com');
    assert.deepEqual(auth.issued.at(-1)!.claims!.acr, ['ts.svc.iac.email'], 'a new browser is not bound');
  });

  it('a passkey login binds that passkey: the next passkey login has app_bound_cred, an email login on that browser does not', async () => {
    const { authenticator, browser } = await auth.withPasskey('pk@example.com');
    await auth.passkeySignIn(authenticator, browser);
    const login = auth.issued.at(-1)!.login!;
    assert.equal(login.authenticatorId, authenticator.credentialId);
    await auth.feedback(auth.accessTokenFor(), {});
    await auth.passkeySignIn(authenticator, browser);
    assert.ok(auth.issued.at(-1)!.claims!.acr.includes('ts.svc.app_bound_cred'));
    await auth.emailSignIn('pk@example.com', browser);
    assert.ok(!auth.issued.at(-1)!.claims!.acr.includes('ts.svc.app_bound_cred'));
  });

  it('alias taken by another user of the app: 409 with the management error object; the same user again: 200', async () => {
    await auth.emailSignIn('first@example.com');
    const firstToken = auth.accessTokenFor();
    assert.equal((await auth.feedback(firstToken, { alias: 'shared' })).status, 200);
    await auth.emailSignIn('second@example.com');
    const [status, body] = await json(await auth.feedback(auth.accessTokenFor(), { alias: 'shared' }));
    assert.equal(status, 409);
    assert.deepEqual(body, {
      status: 'error',
      error: {
        code: 'alias_taken',
        message: 'the alias belongs to another user of this application',
        fields: { alias: 'is taken by another user of this application' },
      },
    });
    const second = await auth.users.memberships.get('tenant-1', 'app-1', auth.issued.at(-1)!.claims!.sub);
    assert.equal(second?.confirmed, false, 'a refused feedback confirms nothing');
    assert.deepEqual(await json(await auth.feedback(firstToken, { alias: 'shared' })), [
      200,
      { status: 'success' },
    ]);
  });
});
