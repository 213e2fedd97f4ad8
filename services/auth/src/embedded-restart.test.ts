import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { tempEngines } from '@sesame/embedded-store/testing';
import { signIn } from './testing/email-sign-in';
import { authorizePath, client, startAuth } from './testing/hosted-test-client';
import { sqliteUserStore } from './users/users.sqlite';

const engines = tempEngines('auth-restart');

describe('auth on the embedded engine (the launcher gives it, no Mongo or Redis URL)', () => {
  it('a person signed in before a restart is still there after it, and so is their browser session', async () => {
    const dir = engines.dir();
    let engine = engines.open(dir);
    let auth = await startAuth({ embedded: engine });
    const { browser } = await signIn(auth, 'ada@example.com');
    const port = Number(new URL(auth.base).port);
    await auth.stop();
    engine.close();

    engine = engines.open(dir);
    const stored = sqliteUserStore(engine);
    const person = await stored.users.findByEmail('ada@example.com');
    assert.ok(person, 'the person is in the store after a restart');
    const [member] = await stored.memberships.listForUser(client.tenantId, person.userId);
    assert.equal(member?.appId, client.appId);
    assert.equal((await stored.devices.listForUser(person.userId)).length, 1, 'the device signed in with');

    auth = await startAuth({ embedded: engine, port });
    try {
      const silent = await browser.request(authorizePath({ prompt: 'none' }));
      const code = silent.status === 303 ? await browser.request(silent.location) : silent;
      assert.match(code.location, /^https:\/\/rp\.example\/cb\?code=/, 'the session and consent are kept');
      const stranger = await auth.browser().request(authorizePath({ prompt: 'none' }));
      assert.match(stranger.location, /error=login_required/, 'a browser with no session is still asked');
    } finally {
      await auth.stop();
    }
  });
});
