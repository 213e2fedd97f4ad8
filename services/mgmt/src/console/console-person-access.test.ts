import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type ConsoleFixture, signedIn, stopConsole } from '../testing/console-fixture';
import type { ConsoleBrowser } from '../testing/fake-provider';
import { startSupportConsole } from '../testing/support-console';
import { MemorySupport } from '../testing/support-memory';

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;

describe('console: a person’s sessions, Sign out everywhere, Disable / Enable account (issue 38)', () => {
  let f: ConsoleFixture;
  let support: ConsoleBrowser;
  let admin: ConsoleBrowser;
  const port = new MemorySupport();
  let other: string;
  beforeAll(async () => {
    ({ f, other } = await startSupportConsole(port));
    port.sessions.set(`${f.tenantId} user-alice`, [
      {
        sid: 'sid-1',
        deviceName: 'Linux PC',
        os: 'Linux',
        browser: 'Chrome 156',
        place: 'Berlin, DE',
        startedAt: Date.UTC(2026, 0, 5, 9),
        lastSeenAt: Date.UTC(2026, 0, 6, 9),
        apps: [{ clientId: 'c1', name: 'Acme shop' }],
      },
    ]);
    f.h.peers.memberships.push({ tenantId: f.tenantId, appId: 'app-1', userId: 'user-alice' });
    support = await signedIn(f, 'support@acme.test');
    admin = await signedIn(f, 'admin@acme.test');
  });
  afterAll(() => stopConsole(f));

  it('the person page shows each session in plain words and the account status; buttons by role', async () => {
    const supportPage = await (await support.get('/console/users/user-alice')).text();
    assert.match(supportPage, /<h2 id="sessions">Sessions<\/h2>/);
    assert.match(supportPage, /<td>Chrome 156 on Linux<\/td><td>Berlin, DE<\/td>/);
    assert.match(supportPage, /<td>Acme shop<\/td>/);
    assert.match(supportPage, /<h2 id="status">Status<\/h2>\s*<p>Enabled: may sign in\.<\/p>/);
    assert.match(supportPage, />Sign out everywhere<\/button>/);
    assert.doesNotMatch(supportPage, /Disable account/, 'Support may not disable');
    const adminPage = await (await admin.get('/console/users/user-alice')).text();
    assert.match(adminPage, />Disable account<\/button>/);
  });

  it('Sign out everywhere asks first and changes nothing before the confirmation; then ends sessions and tokens', async () => {
    const csrf = csrfOf(await (await support.get('/console/users/user-alice')).text());
    const signOutsBefore = f.h.peers.signOuts.length;
    const revokedBefore = f.h.peers.revokedGrants.length;
    const asked = await support.post('/console/users/user-alice/sign-out-everywhere', { csrf });
    assert.equal(asked.status, 200);
    const confirm = await asked.text();
    assert.match(confirm, /Confirm: Sign out everywhere/);
    assert.match(confirm, /their refresh tokens stop working at once/);
    assert.match(confirm, /Applies to: alice@example\.com/);
    assert.equal(f.h.peers.signOuts.length, signOutsBefore, 'nothing changed before the confirmation');
    assert.equal(f.h.peers.revokedGrants.length, revokedBefore);

    const done = await support.post('/console/users/user-alice/sign-out-everywhere', {
      csrf,
      confirm: 'yes',
    });
    assert.equal(done.status, 303);
    assert.match(done.headers.get('location') ?? '', /done=signedOut&n=2#sessions$/);
    assert.deepEqual(f.h.peers.signOuts.at(-1), { tenantId: f.tenantId, userId: 'user-alice' });
    assert.deepEqual(f.h.peers.revokedGrants.at(-1), {
      tenantId: f.tenantId,
      userId: 'user-alice',
      appId: '',
      deviceId: '',
    });
    const e = f.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [e.activityType, e.adminEmail, e.tenantId, e.data],
      [
        'administrator_sign_out_user_everywhere',
        'support@acme.test',
        f.tenantId,
        { userId: 'user-alice', endedSessions: 2, notifiedApps: ['client-a'] },
      ],
    );
    const after = await (await support.get(done.headers.get('location')!)).text();
    assert.match(after, /Signed out everywhere: 2 sessions ended/);
  });

  it('Disable account: Support is refused; an Administrator confirms, the person is disabled and signed out', async () => {
    const supportCsrf = csrfOf(await (await support.get('/console/users/user-alice')).text());
    const refused = await support.post('/console/users/user-alice/status', {
      csrf: supportCsrf,
      disabled: 'true',
      confirm: 'yes',
    });
    assert.equal(refused.status, 403, await refused.text());
    const csrf = csrfOf(await (await admin.get('/console/users/user-alice')).text());
    const disablesBefore = f.h.peers.disables.length;
    const asked = await admin.post('/console/users/user-alice/status', { csrf, disabled: 'true' });
    assert.equal(asked.status, 200);
    assert.match(await asked.text(), /cannot sign in to any application of this tenant/);
    assert.equal(f.h.peers.disables.length, disablesBefore, 'nothing changed before the confirmation');

    const signOutsBefore = f.h.peers.signOuts.length;
    const done = await admin.post('/console/users/user-alice/status', {
      csrf,
      disabled: 'true',
      confirm: 'yes',
    });
    assert.equal(done.status, 303);
    assert.deepEqual(f.h.peers.disables.at(-1), {
      tenantId: f.tenantId,
      userId: 'user-alice',
      disabled: true,
    });
    assert.equal(f.h.peers.signOuts.length, signOutsBefore + 1, 'disabling ends the sessions');
    const e = f.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [e.activityType, e.adminEmail, e.data],
      ['administrator_disable_user', 'admin@acme.test', { userId: 'user-alice', endedSessions: 2 }],
    );
  });

  it('Enable account needs no confirmation; a person of another tenant is not found; bad input is a 400', async () => {
    const csrf = csrfOf(await (await admin.get('/console/users/user-alice')).text());
    const enabled = await admin.post('/console/users/user-alice/status', { csrf, disabled: 'false' });
    assert.equal(enabled.status, 303);
    assert.deepEqual(f.h.peers.disables.at(-1), {
      tenantId: f.tenantId,
      userId: 'user-alice',
      disabled: false,
    });
    assert.equal(f.h.adminEvents.at(-1)!.activityType, 'administrator_enable_user');
    const foreign = await admin.post('/console/users/user-other/status', { csrf, disabled: 'false' });
    assert.equal(foreign.status, 404);
    const bad = await admin.post('/console/users/user-alice/status', {
      csrf,
      disabled: 'maybe',
      confirm: 'yes',
    });
    assert.equal(bad.status, 400);
  });

  it('a disabled person’s page says since when', async () => {
    port.people.find((p) => p.userId === 'user-alice' && p.tenantId === f.tenantId)!.disabledAt = Date.UTC(
      2026,
      0,
      7,
    );
    const page = await (await admin.get('/console/users/user-alice')).text();
    assert.match(
      page,
      /Disabled since Jan 7, 2026, 12:00:00 AM: cannot sign in to any application of this tenant\./,
    );
    assert.match(page, />Enable account<\/button>/);
  });
});
