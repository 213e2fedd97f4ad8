import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { hostedPageHeaders } from './headers';

describe('hostedPageHeaders', () => {
  it('sets the strict CSP with form-action limited to self when given no origins', () => {
    assert.equal(
      hostedPageHeaders()['Content-Security-Policy'],
      "default-src 'none'; base-uri 'none'; frame-ancestors 'none'; img-src 'self' data:; style-src 'self'; " +
        "script-src 'self'; connect-src 'self'; form-action 'self'",
    );
  });

  it('adds the redirect_uri origins (once each, path dropped) and a native scheme to form-action', () => {
    const csp = hostedPageHeaders({
      formActionOrigins: ['https://rp.example/cb?x=1', 'https://rp.example:443/other', 'com.example.app:/cb'],
    })['Content-Security-Policy'];
    assert.match(csp ?? '', /; form-action 'self' https:\/\/rp\.example com\.example\.app:$/);
  });

  it('refuses a value that is not a URL rather than write it into the policy', () => {
    assert.throws(() => hostedPageHeaders({ formActionOrigins: ["x; script-src 'unsafe-inline'"] }));
  });

  it('forbids caching and referrers', () => {
    const headers = hostedPageHeaders();
    assert.deepEqual(
      [headers['Cache-Control'], headers['Referrer-Policy'], headers['X-Content-Type-Options']],
      ['no-store', 'no-referrer', 'nosniff'],
    );
  });
});
