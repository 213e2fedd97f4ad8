import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { texts, visibleText } from '../../pages/page-fixtures';
import { startedForSuite } from '../../testing/suite';
import { ISSUER, hint, jwt, logoutAuth, stranger } from './logout-test-support';

/** Each refused logout request and the reason line its error page shows under "Sign-out request not valid". */
const causes: Array<[string, Record<string, string>, RegExp]> = [
  [
    'an unregistered post_logout_redirect_uri',
    { client_id: 'client-1', post_logout_redirect_uri: 'https://evil.example/signed-out' },
    /The address to return to after signing out \(post_logout_redirect_uri\) is not registered for this app\./,
  ],
  [
    'a post_logout_redirect_uri without client_id or id_token_hint',
    { post_logout_redirect_uri: 'https://rp.example/signed-out' },
    /The request names an address to return to, but not the app it belongs to \(client_id or id_token_hint\)\./,
  ],
  [
    'an unknown client_id',
    { client_id: 'no-such-client' },
    /The app named in the request \(client_id\) is not known\./,
  ],
  [
    'a forged id_token_hint',
    { id_token_hint: jwt({ iss: ISSUER, sub: 'u', aud: 'client-1', sid: 's' }, stranger.privateKey) },
    /The ID token sent with the request \(id_token_hint\) is not valid or was not issued by this sign-in service\./,
  ],
  [
    'an id_token_hint of another app than client_id',
    { id_token_hint: hint('u', 's', { aud: 'client-2' }), client_id: 'client-1' },
    /The ID token sent with the request \(id_token_hint\) belongs to another app than the one named \(client_id\)\./,
  ],
];

describe('the logout error page says which part of the request is wrong', () => {
  const auth = startedForSuite(logoutAuth().start);
  const page = async (params: Record<string, string>, language = 'en') => {
    const res = await fetch(`${auth.base}/logout?${new URLSearchParams(params)}`, {
      headers: { accept: 'text/html', 'accept-language': language },
      redirect: 'manual',
    });
    return { status: res.status, html: await res.text() };
  };

  it.each(causes)(
    '%s: 400, the heading "Sign-out request not valid" and its own reason',
    async (_, params, reason) => {
      const { status, html } = await page(params);
      assert.equal(status, 400);
      assert.deepEqual(texts(html, 'h1'), ['Sign-out request not valid']);
      assert.match(visibleText(html), reason);
      const others = causes.filter(([, , r]) => r !== reason).filter(([, , r]) => r.test(visibleText(html)));
      assert.deepEqual(others, [], 'no other reason is shown');
    },
  );

  it('a repeated parameter has its own reason too', async () => {
    const res = await fetch(`${auth.base}/logout?client_id=client-1&client_id=client-2`);
    assert.equal(res.status, 400);
    assert.match(visibleText(await res.text()), /A parameter of the request is repeated or too long\./);
  });

  it('shows the reason in German and French', async () => {
    const params = { client_id: 'client-1', post_logout_redirect_uri: 'https://evil.example/signed-out' };
    const de = await page(params, 'de');
    assert.deepEqual(texts(de.html, 'h1'), ['Abmeldeanfrage ungültig']);
    assert.match(visibleText(de.html), /nicht für diese App registriert/);
    const fr = await page(params, 'fr');
    assert.deepEqual(texts(fr.html, 'h1'), ['Demande de déconnexion non valide']);
    assert.match(visibleText(fr.html), /n’est pas enregistrée pour cette application/);
  });
});
