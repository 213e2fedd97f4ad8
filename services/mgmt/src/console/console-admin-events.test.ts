import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type ConsoleFixture, signedIn, startConsole, stopConsole } from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';
import { supportData } from '../testing/support-data';
import { MemorySupport } from '../testing/support-memory';

const csrf = ConsoleBrowser.csrfOf;

describe('console: personal API tokens and removals are admin events; Owners see every administrator’s tokens', () => {
  let f: ConsoleFixture;
  let owner: ConsoleBrowser;
  let admin: ConsoleBrowser;
  let appId: string;
  const port = new MemorySupport();
  beforeAll(async () => {
    f = await startConsole(
      [
        ['owner@acme.test', 'owner'],
        ['admin@acme.test', 'administrator'],
      ],
      'Acme',
      { support: port },
    );
    const other = await f.h.createTenant('Other');
    ({ appId } = await f.h.createApp<{ appId: string }>(f.tenantId, { name: 'Acme shop' }));
    supportData(port, f.tenantId, other, appId);
    f.h.peers.memberships.push(
      { tenantId: f.tenantId, appId, userId: 'user-alice' },
      { tenantId: f.tenantId, appId: 'app-2', userId: 'user-alice' },
    );
    owner = await signedIn(f, 'owner@acme.test');
    admin = await signedIn(f, 'admin@acme.test');
  });
  afterAll(() => stopConsole(f));

  const sessionIdOf = (email: string) =>
    f.h.adminEvents.find((e) => e.adminEmail === email && e.activityType === 'administrator_enter_tenant')!
      .sessionId;

  it('Create token publishes administrator_create_api_token and Revoke administrator_revoke_api_token, as the session', async () => {
    const form = await (await admin.get('/console/tokens?new')).text();
    const res = await admin.post('/console/tokens', { csrf: csrf(form), name: 'deploy' });
    assert.equal(res.status, 201);
    const record = (await f.h.admins.tokens.list(f.tenantId, 'admin@acme.test')).at(-1)!;
    const created = f.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [created.activityType, created.adminEmail, created.sessionId, created.tenantId, created.data],
      [
        'administrator_create_api_token',
        'admin@acme.test',
        sessionIdOf('admin@acme.test'),
        f.tenantId,
        { tokenId: record.tokenId, name: 'deploy', email: 'admin@acme.test', expiresAt: record.expiresAt },
      ],
    );
    const html = await res.text();
    assert.ok(!JSON.stringify(created.data).includes(/value="(sesame_pat_[\w-]+)"/.exec(html)![1]!));
    const revoked = await admin.post(`/console/tokens/${record.tokenId}/revoke`, {
      confirm: 'yes',
      csrf: csrf(form),
    });
    assert.equal(revoked.status, 303);
    const event = f.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [event.activityType, event.adminEmail, event.data],
      [
        'administrator_revoke_api_token',
        'admin@acme.test',
        { tokenId: record.tokenId, name: 'deploy', email: 'admin@acme.test' },
      ],
    );
  });

  it('an Owner sees every administrator’s tokens and revokes another’s; an Administrator sees only their own', async () => {
    const form = await (await admin.get('/console/tokens?new')).text();
    await admin.post('/console/tokens', { csrf: csrf(form), name: 'nightly' });
    const theirs = (await f.h.admins.tokens.list(f.tenantId, 'admin@acme.test')).at(-1)!;
    const adminPage = await (await admin.get('/console/tokens')).text();
    assert.doesNotMatch(adminPage, /Every administrator’s tokens/);
    const forged = await admin.post('/console/tokens/nope/revoke', { confirm: 'yes', csrf: csrf(form) });
    assert.equal(forged.status, 404);

    const page = await (await owner.get('/console/tokens')).text();
    assert.match(page, /<h2 id="all-tokens">Every administrator’s tokens<\/h2>/);
    assert.match(page, /<td>admin@acme\.test<\/td><td>nightly<\/td>/);
    assert.match(page, /aria-label="Revoke nightly of admin@acme\.test"/);
    const res = await owner.post(`/console/tokens/${theirs.tokenId}/revoke`, {
      confirm: 'yes',
      csrf: csrf(page),
    });
    assert.equal(res.status, 303);
    assert.ok((await f.h.admins.tokens.list(f.tenantId, 'admin@acme.test')).at(-1)!.revokedAt);
    const event = f.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [event.activityType, event.adminEmail, event.data],
      [
        'administrator_revoke_api_token',
        'owner@acme.test',
        { tokenId: theirs.tokenId, name: 'nightly', email: 'admin@acme.test' },
      ],
    );
    // An Administrator cannot revoke the Owner's token: it is not theirs (404), and nothing changes.
    const ownerForm = await (await owner.get('/console/tokens?new')).text();
    await owner.post('/console/tokens', { csrf: csrf(ownerForm), name: 'owner-ci' });
    const ownerToken = (await f.h.admins.tokens.list(f.tenantId, 'owner@acme.test')).at(-1)!;
    const events = f.h.adminEvents.length;
    const refused = await admin.post(`/console/tokens/${ownerToken.tokenId}/revoke`, {
      confirm: 'yes',
      csrf: csrf(form),
    });
    assert.equal(refused.status, 404);
    assert.equal(f.h.adminEvents.length, events);
    assert.equal((await f.h.admins.tokens.list(f.tenantId, 'owner@acme.test')).at(-1)!.revokedAt, undefined);
  });

  it('Remove from application and from tenant publish administrator_remove_user with the actor, userId, scope and app', async () => {
    const page = await (await admin.get('/console/users/user-alice')).text();
    const fromApp = await admin.post('/console/users/user-alice/remove', {
      confirm: 'yes',
      csrf: csrf(page),
      app: appId,
    });
    assert.equal(fromApp.status, 303);
    const first = f.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [first.activityType, first.adminEmail, first.sessionId, first.tenantId, first.data],
      [
        'administrator_remove_user',
        'admin@acme.test',
        sessionIdOf('admin@acme.test'),
        f.tenantId,
        { userId: 'user-alice', scope: 'app', appId },
      ],
    );
    const fromTenant = await admin.post('/console/users/user-alice/remove', {
      confirm: 'yes',
      csrf: csrf(page),
    });
    assert.equal(fromTenant.status, 303);
    assert.deepEqual(
      [f.h.adminEvents.at(-1)!.activityType, f.h.adminEvents.at(-1)!.data],
      ['administrator_remove_user', { userId: 'user-alice', scope: 'tenant' }],
    );
  });
});
