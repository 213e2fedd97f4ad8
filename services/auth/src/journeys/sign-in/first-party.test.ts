import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { emailStep } from '../../testing/email-sign-in';
import { startAuth } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';

describe('a first-party client (the Sesame Console) asks no consent for its own sign-in', () => {
  const firstParty = startedForSuite(() => startAuth({ client: { firstParty: true } }));
  const thirdParty = startedForSuite(() => startAuth());

  it('a new person’s verified code goes straight to the client with a code: no consent page', async () => {
    const { browser, csrf, flow } = await emailStep(firstParty, 'admin@example.com');
    const verified = await browser.request(`${flow}/code`, {
      form: { csrf, code: firstParty.codeFor('admin@example.com') },
    });
    assert.deepEqual([verified.status, verified.location], [303, `${flow}/continue`]);
    const done = await browser.request(`${flow}/continue`);
    assert.equal(done.status, 302, 'no consent page');
    assert.doesNotMatch(done.body, />Approve</);
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
    assert.equal(firstParty.issued.at(-1)?.claims?.email, 'admin@example.com');
  });

  it('the same request from a client without the flag still shows the consent page', async () => {
    const { browser, csrf, flow } = await emailStep(thirdParty, 'person@example.com');
    await browser.request(`${flow}/code`, { form: { csrf, code: thirdParty.codeFor('person@example.com') } });
    const consent = await browser.request(`${flow}/continue`);
    assert.equal(consent.status, 200);
    assert.match(consent.body, />Approve</);
  });
});
