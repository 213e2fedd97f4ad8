import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from '@jest/globals';
import { type CryptoKey, type JWK, SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { signIn } from '../testing/email-sign-in';
import { client, startAuth } from '../testing/hosted-test-client';
import { startedForSuite } from '../testing/suite';

const AUTH_URL = 'http://localhost';
const SECRET = 'par-secret';
const peers = {
  authenticateClient: async (id: string, secret: string) =>
    id === client.clientId && secret === SECRET ? client : undefined,
};
const basic = `Basic ${Buffer.from(`${client.clientId}:${SECRET}`).toString('base64')}`;

let key: { privateKey: CryptoKey; jwk: JWK; jkt: string };
beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(pair.publicKey);
  key = { privateKey: pair.privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, 'sha256') };
});

const proof = (htu = `${AUTH_URL}/par`, iat = Math.floor(Date.now() / 1000)) =>
  new SignJWT({ jti: randomUUID(), htm: 'POST', htu, iat })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .sign(key.privateKey);

/** dpop_jkt at /authorize and a DPoP proof at /par bind the code to a key (RFC 9449 §10). */
describe('DPoP binding of the authorization code: dpop_jkt and /par', () => {
  const auth = startedForSuite(() => startAuth({ peers }));

  const push = async (form: Record<string, string>, dpop?: string) => {
    const res = await fetch(`${auth.base}/par`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic,
        ...(dpop ? { dpop } : {}),
      },
      body: new URLSearchParams({
        client_id: client.clientId,
        response_type: 'code',
        redirect_uri: 'https://rp.example/cb',
        scope: 'openid email',
        state: 'st-1',
        ...form,
      }).toString(),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };

  it('dpop_jkt at /authorize is handed to IssueCode with the code', async () => {
    await signIn(auth, 'jkt@example.com', { dpop_jkt: key.jkt });
    assert.equal(auth.issued.at(-1)!.dpopJkt, key.jkt);
    await signIn(auth, 'no-jkt@example.com');
    assert.equal(auth.issued.at(-1)!.dpopJkt, '');
  });

  it('hostile: a dpop_jkt that is no SHA-256 thumbprint is invalid_request (redirected)', async () => {
    const res = await auth
      .browser()
      .request(
        `/authorize?${new URLSearchParams({ client_id: client.clientId, redirect_uri: 'https://rp.example/cb', response_type: 'code', scope: 'openid', state: 's', dpop_jkt: 'short' })}`,
      );
    const url = new URL(res.location);
    assert.equal(url.searchParams.get('error'), 'invalid_request');
    assert.equal(
      url.searchParams.get('error_description'),
      'dpop_jkt must be a JWK SHA-256 thumbprint (43 base64url characters)',
    );
  });

  it("a DPoP proof at /par binds the code to the proof's key", async () => {
    const pushed = await push({}, await proof());
    assert.equal(pushed.status, 201, JSON.stringify(pushed.body));
    await signIn(auth, 'par@example.com', { request_uri: String(pushed.body.request_uri) });
    assert.equal(auth.issued.at(-1)!.dpopJkt, key.jkt);
  });

  it('refuses at /par a bad proof, or a dpop_jkt naming another key than the proof (400 invalid_dpop_proof)', async () => {
    const mismatch = await push({ dpop_jkt: 'A'.repeat(43) }, await proof());
    assert.equal(mismatch.status, 400);
    assert.deepEqual(mismatch.body, {
      error: 'invalid_dpop_proof',
      error_description: 'dpop_jkt does not match the key of the DPoP proof',
    });
    const elsewhere = await push({}, await proof(`${AUTH_URL}/token`));
    assert.deepEqual(elsewhere.body, {
      error: 'invalid_dpop_proof',
      error_description: 'DPoP proof htu does not match the endpoint URL',
    });
    const old = await push({}, await proof(undefined, Math.floor(Date.now() / 1000) - 120));
    assert.equal(old.body.error_description, 'DPoP proof is too old (iat)');
    const once = await proof();
    assert.equal((await push({}, once)).status, 201);
    const replay = await push({}, once);
    assert.equal(replay.body.error_description, 'DPoP proof jti has already been used');
  });
});
