import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { signIn as signInByEmail } from '../../testing/email-sign-in';
import { startAuth } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';

describe('the claims parameter’s standard claims reach token with the grant (OIDC Core 5.5)', () => {
  const auth = startedForSuite(startAuth);

  /** Signs in by email code with this /authorize request; returns the recorded IssueCode request. */
  async function signIn(extra: Record<string, string>, email: string) {
    const { first } = await signInByEmail(auth, email, extra);
    return { first, issued: auth.issued.at(-1)! };
  }

  it('sends the answerable id_token and userinfo names; an email value prefills the sign-in page', async () => {
    const claims = JSON.stringify({
      id_token: { email: { essential: true, value: 'claimed@example.com' }, nickname: null },
      userinfo: { email: null, phone_number: null },
    });
    const { first, issued } = await signIn({ claims }, 'claimed@example.com');
    assert.match(first.body, /value="claimed@example\.com"/);
    assert.deepEqual(issued.requestedClaims, { idToken: ['email'], userinfo: ['email', 'phone_number'] });
  });

  it('sends no requested claims without a claims parameter', async () => {
    const { issued } = await signIn({}, 'plain-claims@example.com');
    assert.equal(issued.requestedClaims, undefined);
    assert.equal(issued.requestedClaimValues, undefined);
  });

  it('sends the value or values named for email and phone claims by member (OIDC Core 5.5.1)', async () => {
    const claims = JSON.stringify({
      id_token: { email: { value: 'valued@example.com' }, acr: { values: ['x'] } },
      userinfo: { phone_number: { values: ['+15555550100', '+15555550101'] }, email: null },
    });
    const { issued } = await signIn({ claims }, 'valued@example.com');
    assert.deepEqual(issued.requestedClaimValues, {
      id_token: { email: ['valued@example.com'] },
      userinfo: { phone_number: ['+15555550100', '+15555550101'] },
    });
  });
});
