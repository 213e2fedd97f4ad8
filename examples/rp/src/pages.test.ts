import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { assuranceInWords, claimsPage, esc, homePage, howInWords } from './pages';

describe('the sample app’s pages', () => {
  it('says how the person signed in from amr, and the assurance from acr, in words', () => {
    assert.equal(howInWords(['ts.svc.email_otp']), 'an email code');
    assert.equal(howInWords(['ts.svc.ama', 'ts.svc.mfca']), 'on a mobile phone and a passkey');
    assert.equal(howInWords(['custom']), 'custom');
    assert.equal(howInWords(undefined), 'not said');
    assert.equal(assuranceInWords('ts.svc.iac.email'), 'a verified email address');
    assert.equal(assuranceInWords(''), 'none');
  });

  it('the claims page names the person, the subject, the time and the way, and escapes what it shows', () => {
    const html = claimsPage({
      kind: 'signed-in',
      idToken: 't',
      claims: {
        sub: 'u-1',
        email: 'alice@example.com',
        email_verified: true,
        auth_time: 1_700_000_000,
        amr: ['ts.svc.email_otp'],
        acr: 'ts.svc.iac.email',
        name: '<script>x</script>',
      },
      userinfo: { sub: 'u-1', email: 'alice@example.com' },
      signedInAt: new Date(),
    });
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<h1>Signed in as alice@example.com<\/h1>/);
    assert.match(html, /<dt>Subject \(sub\)<\/dt><dd>u-1<\/dd>/);
    assert.match(html, /<dt>Signed in at \(auth_time\)<\/dt><dd>Tue, 14 Nov 2023 22:13:20 GMT<\/dd>/);
    assert.match(html, /<dt>How \(amr\)<\/dt><dd>an email code<\/dd>/);
    assert.match(html, /<h2>The userinfo answer<\/h2>/);
    assert.ok(!html.includes('<script>'), 'claims are escaped');
    assert.match(html, /<button type="submit">Sign out<\/button>/);
  });

  it('the home page: Sign in when signed out; the back-channel notice when Sesame ended the session', () => {
    assert.match(homePage({ issuer: 'http://i' }), /<a class="button" href="\/login">Sign in<\/a>/);
    const ended = homePage({
      issuer: 'http://i',
      ended: { kind: 'signed-out', by: 'back-channel', at: new Date() },
    });
    assert.match(ended, /role="status">Signed out by Sesame \(back-channel\)/);
    assert.match(ended, /href="\/login">Sign in/);
    assert.equal(esc(`a&"<'>`), 'a&amp;&quot;&lt;&#39;&gt;');
  });
});
