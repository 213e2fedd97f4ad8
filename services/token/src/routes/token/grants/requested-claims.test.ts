import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { GrpcStatus } from '@sesame/platform';
import { decodeJwt } from 'jose';
import { rpCalls } from '../../../testing/rp-client';
import { type TokenHarness, startTokenHarness } from '../../../testing/token-harness';

const conf = { clientId: 'rc-conf', secret: 'rc-secret' };

describe('the claims parameter’s standard claims in the tokens (OIDC Core 5.5)', () => {
  let h: TokenHarness;
  let rp: ReturnType<typeof rpCalls>;
  beforeAll(async () => {
    h = await startTokenHarness();
    rp = rpCalls(h);
    h.directory.addClient({
      ...conf,
      refreshTokens: { enabled: true, absoluteLifetimeS: 86400, idleLifetimeS: 3600 },
    });
  });
  afterAll(() => h.stop());

  const signIn = () =>
    rp.signIn(conf, {
      scope: 'openid offline_access',
      requestedClaims: { idToken: ['email', 'email_verified'], userinfo: ['phone_number', 'email'] },
      requestedClaimValues: { userinfo: { email: ['someone-else@example.com'] } },
    });

  it('id_token names reach the ID token, userinfo names /userinfo, a value not matching is left out', async () => {
    const { status, body } = await signIn();
    assert.equal(status, 200);
    const idToken = decodeJwt(String(body.id_token));
    assert.equal(idToken.email, 'j@example.com');
    assert.equal(idToken.email_verified, true);
    assert.equal(idToken.phone_number, undefined);
    const info = await rp.userinfo(`Bearer ${body.access_token}`);
    assert.deepEqual(info.body, { sub: idToken.sub, phone_number: '+15555550100' });
  });

  it('a refresh answers the same: the claims request is kept with the refresh token family', async () => {
    const first = await signIn();
    const refreshed = await rp.refresh(conf, first.body.refresh_token);
    assert.equal(refreshed.status, 200);
    const idToken = decodeJwt(String(refreshed.body.id_token));
    assert.equal(idToken.email, 'j@example.com');
    assert.equal(idToken.phone_number, undefined);
    const info = await rp.userinfo(`Bearer ${refreshed.body.access_token}`);
    assert.deepEqual(info.body, { sub: idToken.sub, phone_number: '+15555550100' });
  });

  it('without a claims request scope openid gives no email (nothing changed for plain requests)', async () => {
    const { body } = await rp.signIn(conf, { scope: 'openid' });
    assert.equal(decodeJwt(String(body.id_token)).email, undefined);
  });

  it('hostile: IssueCode with values that are not lists by claim name is INVALID_ARGUMENT', async () => {
    await assert.rejects(
      rp.issueCode(conf, {
        requestedClaims: { idToken: ['email'], userinfo: [] },
        requestedClaimValues: { id_token: { email: 'j@example.com' } },
      }),
      { code: GrpcStatus.INVALID_ARGUMENT },
    );
  });
});
