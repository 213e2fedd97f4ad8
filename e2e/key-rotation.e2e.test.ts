import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { createClient } from '@sesame/platform';
import { keys } from '@sesame/proto';
import { eventually, clientCredentials as postClientCredentials } from '@sesame/testing';
import { type JSONWebKeySet, createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { type RealPlatform, startRealPlatform } from './real-platform';
import { authenticatedClaims } from './token-fixtures';

const WORKERS = 8;

/**
 * Key rotation under load, on the real servers: while /token is hammered with client_credentials grants
 * and code redemptions, Keys.RotateKeys runs. Not one request fails; the new key is in /jwks before it signs
 * anything and signs nothing before its activation time; once the token service switched, every later ID
 * token carries the new kid; the old key stays in /jwks, and every ID token verifies against the /jwks an RP
 * fetched before it was issued (the old ones against the document from before the rotation).
 */
// Each test and hook of this file may take this long (starting processes, load runs).
jest.setTimeout(180_000);

/**
 * The new key's publish delay: long enough that RotateKeys (two RSA keys, Mongo writes, under load) answers
 * well before activation, so ID tokens are issued between the two and the "not before its time" check bites.
 */
const PUBLISH_DELAY_MS = 15_000;
/** ID tokens that must be signed with the new key after the switch, to show the switch holds. */
const AFTER_SWITCH = 20;

interface IssuedIdToken {
  jwt: string;
  kid: string;
  /** When the /token request was sent and when its answer arrived (epoch ms). */
  sentAt: number;
  receivedAt: number;
}

describe('signing key rotation under load', () => {
  let env: RealPlatform;
  beforeAll(async () => {
    env = await startRealPlatform('key-rotation', {
      env: { SESAME_KEY_PUBLISH_DELAY_MS: String(PUBLISH_DELAY_MS) },
    });
  });
  afterAll(() => env?.stop());

  const form = (body: Record<string, string>) =>
    fetch(`${env.platform.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body),
    });
  const jwksDocument = async () => (await (await fetch(`${env.platform.url}/jwks`)).json()) as JSONWebKeySet;
  // The demo app signs with the default alg: follow the RS256 slot (PS256 and ES256 rotate beside it).
  const signingKids = (set: JSONWebKeySet) => set.keys.filter((k) => k.alg === 'RS256').map((k) => k.kid);

  it('switches keys with zero failed requests, never signs with a key before its time, and keeps every token verifiable', async () => {
    const { demo } = env;
    const failures: string[] = [];
    const idTokens: IssuedIdToken[] = [];
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
        dpopJkt: '',
        flowId: 'key-rotation-e2e',
        claims: authenticatedClaims('rotation-nonce'),
      });
      const sentAt = Date.now();
      const res = await form({
        grant_type: 'authorization_code',
        code,
        redirect_uri: demo.redirectUri,
        client_id: demo.clientId,
        client_secret: demo.clientSecret,
      });
      const body = (await res.json()) as { id_token?: string };
      const receivedAt = Date.now();
      if (res.status !== 200 || !body.id_token)
        failures.push(`authorization_code ${res.status} ${JSON.stringify(body)}`);
      else
        idTokens.push({
          jwt: body.id_token,
          kid: decodeProtectedHeader(body.id_token).kid ?? '',
          sentAt,
          receivedAt,
        });
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

    // What an RP that fetched /jwks before the rotation has cached: the one signing key of a fresh platform.
    const beforeRotation = await jwksDocument();
    const load = Array.from({ length: WORKERS }, (_, n) => worker(n));
    try {
      const first = await eventually(
        async () => idTokens[0],
        (t) => t !== undefined,
        30_000,
      );
      assert.ok(first, 'an ID token was issued under load before the rotation');
      const oldKid = first.kid;
      assert.deepEqual(signingKids(beforeRotation), [oldKid]);

      // A loaded machine may need more than the default 3 s deadline for the two key pairs.
      const keysClient = createClient(keys.KeysServiceClient, env.platform.grpcAddresses.jwks!, {
        deadlineMs: 30_000,
      });
      const rotation = await keysClient.rotateKeys({}).finally(() => keysClient.close());
      const rotatedAt = Date.now();
      const newKid = rotation.signingKid;
      assert.notEqual(newKid, oldKid);
      assert.ok(
        rotation.activatesAt - rotatedAt > 1_000,
        `RotateKeys answered ${rotatedAt - rotation.activatesAt + PUBLISH_DELAY_MS} ms after the key was made: too late to watch the publish delay`,
      );
      // Published before it signs: right after RotateKeys, /jwks already lists the new key next to the old.
      const rightAfterRotation = await jwksDocument();
      assert.deepEqual(signingKids(rightAfterRotation).sort(), [oldKid, newKid].sort());

      // The switch, as RPs see it: an ID token signed with the new key (deadline: activation plus slack).
      const switched = await eventually(
        async () => idTokens.find((t) => t.kid === newKid),
        (t) => t !== undefined,
        Math.max(0, rotation.activatesAt - Date.now()) + 30_000,
      );
      assert.ok(switched, `an ID token signed with ${newKid} within 30 s of its activation`);
      // It holds: tokens requested after the first new one keep coming, all of them with the new key.
      const requestedAfterSwitch = () => idTokens.filter((t) => t.sentAt > switched.receivedAt);
      await eventually(
        async () => requestedAfterSwitch().length,
        (n) => n >= AFTER_SWITCH,
        60_000,
      );
      // After the switch the old key stays published: tokens it signed are still valid.
      const afterSwitch = await jwksDocument();
      running = false;
      await Promise.all(load);

      assert.deepEqual(failures, [], `${failures.length} of ${requests} requests failed`);
      assert.deepEqual(signingKids(afterSwitch).sort(), [oldKid, newKid].sort(), 'jwks after the switch');
      const later = requestedAfterSwitch();
      assert.ok(later.length >= AFTER_SWITCH, `ID tokens requested after the switch: ${later.length}`);
      const stale = later.filter((t) => t.kid !== newKid);
      assert.equal(
        stale.length,
        0,
        `${stale.length} of ${later.length} ID tokens requested after the switch are not signed with the new key`,
      );
      const early = idTokens.filter((t) => t.receivedAt < rotation.activatesAt);
      assert.ok(
        early.some((t) => t.sentAt > rotatedAt),
        'ID tokens were issued between RotateKeys and the activation time',
      );
      const tooEarly = early.filter((t) => t.kid !== oldKid);
      assert.equal(
        tooEarly.length,
        0,
        `${tooEarly.length} ID tokens signed with ${tooEarly[0]?.kid} before the new key's activation time`,
      );
      const withOld = idTokens.filter((t) => t.kid === oldKid);
      const withNew = idTokens.filter((t) => t.kid === newKid);
      assert.equal(withOld.length + withNew.length, idTokens.length, 'no third key signed anything');

      const verify = (set: JSONWebKeySet, t: IssuedIdToken) =>
        jwtVerify(t.jwt, createLocalJWKSet(set), {
          issuer: env.platform.url,
          audience: demo.clientId,
          algorithms: ['RS256'],
        });
      for (const t of withOld) {
        await verify(beforeRotation, t);
        await verify(afterSwitch, t);
      }
      for (const t of withNew) {
        await verify(rightAfterRotation, t);
        await verify(afterSwitch, t);
      }
      console.log(
        `rotation under load: ${requests} requests, ${withOld.length} ID tokens with the old key, ${withNew.length} with the new (${later.length} requested after the switch), 0 failures`,
      );
    } finally {
      running = false;
      await Promise.all(load);
    }
  });
});
