import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { type JWTPayload, type JWTVerifyGetKey, SignJWT, exportJWK, generateKeyPair } from 'jose';
import { BACKCHANNEL_LOGOUT_EVENT, backchannelReceiver } from './backchannel';
import { SessionStore, type SignedIn } from './sessions';

const issuer = 'http://localhost:8080';
const clientId = 'demo-client';

type Keys = Awaited<ReturnType<typeof generateKeyPair>>;
let issuerKeys: Keys;
let otherKeys: Keys;
let keys: JWTVerifyGetKey;

beforeAll(async () => {
  issuerKeys = await generateKeyPair('RS256');
  otherKeys = await generateKeyPair('RS256');
  // As createRemoteJWKSet answers: the issuer's published public key, whatever the header asks for.
  const jwk = await exportJWK(issuerKeys.publicKey);
  keys = async () => (await import('jose')).importJWK(jwk, 'RS256');
});

/** A logout token as Sesame signs it (Back-Channel Logout 1.0 §2.4); `claims` and `opts` bend it. */
async function logoutToken(
  claims: JWTPayload = {},
  opts: { key?: Keys; typ?: string; drop?: string[] } = {},
): Promise<string> {
  const payload: JWTPayload = {
    iss: issuer,
    aud: clientId,
    sub: 'user-1',
    sid: 'sid-1',
    jti: Math.random().toString(36).slice(2),
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    ...claims,
  };
  for (const name of opts.drop ?? []) delete payload[name];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'RS256', typ: opts.typ ?? 'logout+jwt' })
    .setIssuedAt()
    .sign((opts.key ?? issuerKeys).privateKey);
}

const signedIn = (sub: string, sid: string): SignedIn => ({
  kind: 'signed-in',
  idToken: 'id-token',
  claims: { sub, sid, email: `${sub}@example.com` },
  userinfo: { sub },
  signedInAt: new Date(),
});

function setup() {
  const sessions = new SessionStore();
  sessions.set('browser-a', signedIn('user-1', 'sid-1'));
  sessions.set('browser-b', signedIn('user-1', 'sid-2'));
  sessions.set('browser-c', signedIn('user-2', 'sid-3'));
  const receive = backchannelReceiver({ issuer, clientId, keys, sessions });
  const post = async (token: string) => receive(new URLSearchParams({ logout_token: token }).toString());
  return { sessions, receive, post };
}

const kinds = (sessions: SessionStore) =>
  ['browser-a', 'browser-b', 'browser-c'].map((id) => sessions.get(id)?.kind);

describe('POST /backchannel-logout (the sample app’s receiver)', () => {
  it('a good logout token ends the session of its sid, marked as ended by the back channel, and only that one: 200 {}', async () => {
    const { sessions, post } = setup();
    assert.deepEqual(await post(await logoutToken()), { status: 200, body: {} });
    assert.deepEqual(kinds(sessions), ['signed-out', 'signed-in', 'signed-in']);
    const ended = sessions.get('browser-a');
    assert.equal(ended?.kind === 'signed-out' && ended.by, 'back-channel');
  });

  it('a token without sid ends every session of its sub', async () => {
    const { sessions, post } = setup();
    assert.equal((await post(await logoutToken({}, { drop: ['sid'] }))).status, 200);
    assert.deepEqual(kinds(sessions), ['signed-out', 'signed-out', 'signed-in']);
  });

  it('a good token for a session not signed in here is still 200 (nothing to end)', async () => {
    const { sessions, post } = setup();
    assert.deepEqual(await post(await logoutToken({ sid: 'sid-unknown' })), { status: 200, body: {} });
    assert.deepEqual(kinds(sessions), ['signed-in', 'signed-in', 'signed-in']);
  });

  const bad: Array<[string, () => Promise<string>, RegExp]> = [
    ['signed by another key', () => logoutToken({}, { key: otherKeys }), /does not verify/],
    ['for another client (aud)', () => logoutToken({ aud: 'other-client' }), /does not verify.*aud/],
    ['from another issuer', () => logoutToken({ iss: 'http://evil.example' }), /does not verify.*iss/],
    ['typed as an ID token', () => logoutToken({}, { typ: 'JWT' }), /does not verify.*typ/],
    [
      'without the backchannel-logout event',
      () => logoutToken({ events: {} }),
      /no backchannel-logout event/,
    ],
    ['with a nonce', () => logoutToken({ nonce: 'n' }), /must not carry a nonce/],
    ['naming neither sid nor sub', () => logoutToken({}, { drop: ['sid', 'sub'] }), /neither a session/],
    ['without jti', () => logoutToken({}, { drop: ['jti'] }), /does not verify.*jti/],
    ['not a JWT', async () => 'not.a.jwt', /does not verify/],
  ];
  it.each(bad)(
    'a logout token %s is 400 invalid_request saying why; no session ends',
    async (_, make, why) => {
      const { sessions, post } = setup();
      const answer = await post(await make());
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error, 'invalid_request');
      assert.match(String(answer.body.error_description), why);
      assert.deepEqual(kinds(sessions), ['signed-in', 'signed-in', 'signed-in']);
    },
  );

  it('a body without logout_token is 400 invalid_request', async () => {
    const { receive } = setup();
    assert.deepEqual(await receive('token=x'), {
      status: 400,
      body: { error: 'invalid_request', error_description: 'logout_token is missing' },
    });
  });

  it('the same token twice: the second is a replay, 400', async () => {
    const { post } = setup();
    const token = await logoutToken();
    assert.equal((await post(token)).status, 200);
    const replay = await post(token);
    assert.equal(replay.status, 400);
    assert.match(String(replay.body.error_description), /already used/);
  });
});
