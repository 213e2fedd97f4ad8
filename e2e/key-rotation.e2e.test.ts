import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { createClient } from '@sesame/platform';
import { keys } from '@sesame/proto';
import { clientCredentials as postClientCredentials, sleep } from '@sesame/testing';
import { type JSONWebKeySet, createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { authenticatedClaims, startRealPlatform } from './token-fixtures';

const WORKERS = 8;

/**
 * Key rotation under load, on the real servers: while /token is hammered with client_credentials grants
 * and code redemptions, Keys.RotateKeys runs. Not one request fails, /jwks lists both signing keys during
 * the overlap, and the ID tokens signed before and after the switch all verify against /jwks.
 */
// Each test and hook of this file may take this long (starting processes, load runs).
jest.setTimeout(180_000);

describe('signing key rotation under load', () => {
  let env: Awaited<ReturnType<typeof startRealPlatform>>;
  beforeAll(async () => {
    env = await startRealPlatform('key-rotation');
  });
  afterAll(() => env?.stop());

  const form = (body: Record<string, string>) =>
    fetch(`${env.platform.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body),
    });
  const signingKids = async () => {
    const set = (await (await fetch(`${env.platform.url}/jwks`)).json()) as JSONWebKeySet;
    return set.keys.filter((k) => k.use === 'sig').map((k) => k.kid);
  };

  it('switches keys with zero failed requests and both keys published during the overlap', async () => {
    const { demo } = env;
    const failures: string[] = [];
    const idTokens: string[] = [];
    let requests = 0;
    let running = true;

    const clientCredentials = async () => {
      const res = await postClientCredentials(
        `${env.platform.url}/token`,
        demo.credentialsId,
        demo.apiSecret,
      );
      if (res.status !== 200) failures.push(`client_credentials ${res.status} ${await res.text()}`);
      else await res.arrayBuffer();
    };
    const codeRedemption = async () => {
      const { code } = await env.grants.issueCode({
        tenantId: demo.tenantId,
        appId: demo.appId,
        clientId: demo.clientId,
        redirectUri: demo.redirectUri,
        scope: 'openid',
        codeChallenge: '',
        codeChallengeMethod: '',
        flowId: 'key-rotation-e2e',
        claims: authenticatedClaims('rotation-nonce'),
      });
      const res = await form({
        grant_type: 'authorization_code',
        code,
        redirect_uri: demo.redirectUri,
        client_id: demo.clientId,
        client_secret: demo.clientSecret,
      });
      const body = (await res.json()) as { id_token?: string };
      if (res.status !== 200 || !body.id_token)
        failures.push(`authorization_code ${res.status} ${JSON.stringify(body)}`);
      else idTokens.push(body.id_token);
    };
    const worker = async (n: number) => {
      while (running) {
        requests++;
        try {
          await (n % 2 === 0 ? clientCredentials() : codeRedemption());
        } catch (err) {
          failures.push(`request threw: ${String(err)}`);
        }
      }
    };
    const load = Array.from({ length: WORKERS }, (_, n) => worker(n));

    await sleep(1000);
    const oldKid = decodeProtectedHeader(idTokens[0]!).kid!;
    const rotation = await createClient(keys.KeysServiceClient, env.platform.grpcAddresses.jwks!).rotateKeys(
      {},
    );
    assert.notEqual(rotation.signingKid, oldKid);

    // Published before it signs: right after RotateKeys, /jwks already lists the new key next to the old.
    const published = await signingKids();
    assert.ok(published.includes(oldKid) && published.includes(rotation.signingKid), `jwks: ${published}`);
    const kidOf = (jwt: string) => decodeProtectedHeader(jwt).kid;
    const deadline = Date.now() + Math.max(0, rotation.activatesAt - Date.now()) + 15_000;
    while (Date.now() < deadline && idTokens.filter((t) => kidOf(t) === rotation.signingKid).length < 20) {
      await sleep(100);
    }
    // After the switch the old key stays published: tokens it signed are still valid.
    const overlap = await signingKids();
    running = false;
    await Promise.all(load);

    assert.deepEqual(failures, [], `${failures.length} of ${requests} requests failed`);
    assert.ok(
      overlap.includes(oldKid) && overlap.includes(rotation.signingKid),
      `jwks after switch: ${overlap}`,
    );
    const before = idTokens.filter((t) => kidOf(t) === oldKid);
    const afterSwitch = idTokens.filter((t) => kidOf(t) === rotation.signingKid);
    assert.ok(before.length > 0, 'ID tokens were signed with the old key');
    assert.ok(afterSwitch.length >= 20, `ID tokens signed with the new key: ${afterSwitch.length}`);
    assert.equal(before.length + afterSwitch.length, idTokens.length);
    const jwks = createLocalJWKSet((await (await fetch(`${env.platform.url}/jwks`)).json()) as JSONWebKeySet);
    for (const jwt of [...before, ...afterSwitch]) {
      await jwtVerify(jwt, jwks, {
        issuer: env.platform.url,
        audience: demo.clientId,
        algorithms: ['RS256'],
      });
    }
    console.log(
      `rotation under load: ${requests} requests, ${before.length} ID tokens with the old key, ${afterSwitch.length} with the new, 0 failures`,
    );
  });
});
