import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startedForSuite } from '../../testing/suite';
import { ISSUER, hint, jwt, logoutAuth, showsSignInPage, signIn, stranger } from './logout-test-support';

/**
 * /logout called by the RP's server (zitadel/oidc EndSession, pyoidc do_end_session_request, oauth2-proxy's
 * backend logout URL): no browser cookie, only the id_token_hint. The session its sid names ends, wherever
 * the browser is, and the session's apps are told over the back channel.
 */
describe('logout by id_token_hint from a server, without the browser cookie', () => {
  const { start, signed, notices } = logoutAuth();
  const auth = startedForSuite(start);
  /** A call from the RP's server: no cookie, no browser headers. */
  const fromServer = (params: Record<string, string>, method: 'GET' | 'POST' = 'POST') =>
    fetch(method === 'GET' ? `${auth.base}/logout?${new URLSearchParams(params)}` : `${auth.base}/logout`, {
      method,
      redirect: 'manual',
      ...(method === 'POST'
        ? {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(params).toString(),
          }
        : {}),
    });

  it('a POST with a valid hint ends the session its sid names (no silent sign-in after) and sends the back-channel logout', async () => {
    const { browser, sub, sid } = await signIn(auth, 'server-post@example.com');
    notices();
    signed.length = 0;
    const res = await fromServer({ id_token_hint: hint(sub, sid) });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /You are signed out/);
    assert.equal(
      await showsSignInPage(browser),
      true,
      'the browser’s next /authorize shows the sign-in page',
    );
    assert.deepEqual(signed, [{ issuer: ISSUER, audience: 'client-1', sub, sid, ttlS: 120, alg: '' }]);
    const sent = notices();
    assert.deepEqual(
      sent.map((n) => [n.clientId, n.tenantId, n.backchannelLogoutUri, n.logoutToken]),
      [['client-1', 'tenant-1', 'https://rp.example/backchannel-logout', 'logout-token-1']],
    );
  });

  it('a GET with a valid hint and post_logout_redirect_uri ends the session and redirects with state', async () => {
    const { browser, sub, sid } = await signIn(auth, 'server-get@example.com');
    notices();
    const res = await fromServer(
      {
        id_token_hint: hint(sub, sid),
        post_logout_redirect_uri: 'https://rp.example/signed-out',
        state: 'srv-1',
      },
      'GET',
    );
    assert.deepEqual(
      [res.status, res.headers.get('location')],
      [303, 'https://rp.example/signed-out?state=srv-1'],
    );
    assert.equal(await showsSignInPage(browser), true);
    assert.equal(notices().length, 1);
  });

  it('ends the named session even when the request carries the cookie of another session, without asking', async () => {
    const named = await signIn(auth, 'server-named@example.com');
    const bystander = await signIn(auth, 'server-bystander@example.com');
    const res = await bystander.browser.request('/logout', {
      form: { id_token_hint: hint(named.sub, named.sid) },
    });
    assert.equal(res.status, 200);
    assert.match(res.body, /You are signed out/);
    assert.doesNotMatch(
      res.body,
      />Cancel</,
      'no confirmation page for a verified hint that names a session',
    );
    assert.equal(await showsSignInPage(named.browser), true, 'the session the hint names ended');
    assert.equal(await showsSignInPage(bystander.browser), false, 'the session of the cookie was not named');
  });

  it('hostile: a forged hint, a hint of another tenant’s app, one for another client than client_id, or of another person ends nothing', async () => {
    const { browser, sub, sid } = await signIn(auth, 'server-hostile@example.com');
    notices();
    signed.length = 0;
    const forged = await fromServer({
      id_token_hint: jwt({ iss: ISSUER, sub, aud: 'client-1', sid }, stranger.privateKey),
    });
    assert.equal(forged.status, 400);
    const otherClient = await fromServer({
      id_token_hint: hint(sub, sid, { aud: 'client-2' }),
      client_id: 'client-1',
    });
    assert.equal(otherClient.status, 400);
    // Signed by Sesame, but for client-b of tenant-2: an app ends only sessions of its own tenant.
    await fromServer({ id_token_hint: hint(sub, sid, { aud: 'client-b' }) });
    // Signed by Sesame for this app and this sid, but naming someone else.
    await fromServer({ id_token_hint: hint('someone-else', sid) });
    assert.equal(await showsSignInPage(browser), false, 'still signed in');
    assert.deepEqual(signed, []);
    assert.deepEqual(notices(), []);
  });

  it('a hint whose session already ended ends nothing more and sends no second back-channel logout', async () => {
    const { sub, sid } = await signIn(auth, 'server-twice@example.com');
    assert.equal((await fromServer({ id_token_hint: hint(sub, sid) })).status, 200);
    notices();
    signed.length = 0;
    const again = await fromServer({ id_token_hint: hint(sub, sid) });
    assert.equal(again.status, 200);
    assert.deepEqual(signed, []);
    assert.deepEqual(notices(), []);
  });
});
