import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { startMgmt } from '../../testing/mgmt-harness';
import { startTenantHarness } from '../../testing/tenant-harness';

const T = '/api/v1/admin/tenants';

describe('administrators and personal API tokens on the admin API (hostile)', () => {
  const h = startedForSuite(() => startTenantHarness('Acme', { owner: 'owner', support: 'support' }));

  const snapshot = async () => ({
    events: h.adminEvents.length,
    mail: h.mail.length,
    apps: (await h.dir.applications.list(h.tenantId)).length,
    invitations: (await h.admins.invitations.list(h.tenantId)).length,
    admins: (await h.admins.accounts.list(h.tenantId)).length,
  });

  it('a Support token on Owner-only and Administrator APIs: 403 forbidden, nothing written', async () => {
    const before = await snapshot();
    const calls: [string, string, unknown?][] = [
      ['POST', `${T}/${h.tenantId}/invitations`, { email: 'x@acme.test', role: 'owner' }],
      ['DELETE', `${T}/${h.tenantId}/administrators/owner@acme.test`],
      ['PATCH', `${T}/${h.tenantId}/administrators/support@acme.test`, { role: 'owner' }],
      ['POST', `${T}/${h.tenantId}/applications`, { name: 'Nope', redirectUris: ['https://x.test/cb'] }],
      ['POST', `${T}/${h.tenantId}/credentials`, {}],
      ['DELETE', `${T}/${h.tenantId}`],
      ['GET', `${T}/${h.tenantId}/applications`],
    ];
    for (const [method, path, body] of calls) {
      const res = await h.asToken(h.support, method, path, body);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'forbidden');
    }
    assert.deepEqual(await snapshot(), before);
    assert.equal((await h.admins.accounts.get(h.tenantId, 'support@acme.test'))?.role, 'support');
  });

  it('Support may still read its tenant and manage its own tokens', async () => {
    assert.equal((await h.asToken(h.support, 'GET', `${T}/${h.tenantId}`)).status, 200);
    assert.equal((await h.asToken(h.support, 'GET', `${T}/${h.tenantId}/tokens`)).status, 200);
  });

  it('an Owner invites by email and role: the invitee gets a mail with a link, and the event names the Owner', async () => {
    const res = await h.asToken(h.owner, 'POST', `${T}/${h.tenantId}/invitations`, {
      email: 'New.Admin@Acme.test',
      role: 'administrator',
    });
    assert.equal(res.status, 201);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.email, 'new.admin@acme.test');
    assert.equal(body.role, 'administrator');
    assert.equal(body.invitedBy, 'owner@acme.test');
    assert.equal(body.expiresAt, h.clock.now() + 72 * 3_600_000);
    assert.ok(!('tokenHash' in body));
    const mail = h.mail.at(-1)!;
    assert.equal(mail.to, 'new.admin@acme.test');
    assert.match(mail.text, /http:\/\/admin\.sesame\.test\/console\/invitations\/[\w-]{43}/);
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_tenant_invitation');
    assert.equal(event.adminEmail, 'owner@acme.test');
    assert.deepEqual(event.data, { email: 'new.admin@acme.test' });
  });

  it('the last Owner can be neither removed nor demoted (409 last_owner), and nothing changes', async () => {
    const before = await snapshot();
    const remove = await h.asToken(h.owner, 'DELETE', `${T}/${h.tenantId}/administrators/owner@acme.test`);
    assert.equal(remove.status, 409);
    assert.equal(((await remove.json()) as { error: { code: string } }).error.code, 'last_owner');
    const demote = await h.asToken(h.owner, 'PATCH', `${T}/${h.tenantId}/administrators/owner@acme.test`, {
      role: 'support',
    });
    assert.equal(demote.status, 409);
    assert.deepEqual(await snapshot(), before);
    assert.equal((await h.admins.accounts.get(h.tenantId, 'owner@acme.test'))?.role, 'owner');
  });

  it('an Owner changes a role (event with the diff) and lists administrators with their roles', async () => {
    const res = await h.asToken(h.owner, 'PATCH', `${T}/${h.tenantId}/administrators/Support@Acme.test`, {
      role: 'administrator',
    });
    assert.equal(res.status, 200);
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_update_admin_role');
    assert.deepEqual(event.data, {
      email: 'support@acme.test',
      diff: JSON.stringify({ role: { from: 'support', to: 'administrator' } }),
    });
    const list = (await (await h.asToken(h.owner, 'GET', `${T}/${h.tenantId}/administrators`)).json()) as {
      administrators: { email: string; role: string }[];
      invitations: { email: string }[];
    };
    assert.deepEqual(
      list.administrators.map((a) => [a.email, a.role]),
      [
        ['owner@acme.test', 'owner'],
        ['support@acme.test', 'administrator'],
      ],
    );
    assert.deepEqual(
      list.invitations.map((i) => i.email),
      ['new.admin@acme.test'],
    );
    await h.asToken(h.owner, 'PATCH', `${T}/${h.tenantId}/administrators/support@acme.test`, {
      role: 'support',
    });
  });

  it('the invitation mail is in the language asked for (locale), and an unknown locale is a 400 naming the field', async () => {
    const res = await h.asToken(h.owner, 'POST', `${T}/${h.tenantId}/invitations`, {
      email: 'neu@acme.test',
      role: 'support',
      locale: 'de',
    });
    assert.equal(res.status, 201);
    assert.match(h.mail.at(-1)!.subject, /^Einladung zur Verwaltung von /);
    const sent = h.mail.length;
    const bad = await h.asToken(h.owner, 'POST', `${T}/${h.tenantId}/invitations`, {
      email: 'x@acme.test',
      role: 'support',
      locale: 'xx',
    });
    assert.equal(bad.status, 400);
    const { error } = (await bad.json()) as { error: { code: string; fields: Record<string, string> } };
    assert.equal(error.code, 'invalid_request');
    assert.deepEqual(error.fields, { locale: 'must be one of en, de, fr' });
    assert.equal(h.mail.length, sent);
  });

  it('a removed administrator’s token is refused at once (401), their tokens revoked, the event names the remover', async () => {
    const gone = await h.adminToken(h.tenantId, 'gone@acme.test', 'administrator');
    assert.equal((await h.asToken(gone, 'GET', `${T}/${h.tenantId}/applications`)).status, 200);
    const res = await h.asToken(h.owner, 'DELETE', `${T}/${h.tenantId}/administrators/gone@acme.test`);
    assert.equal(res.status, 200);
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_remove_admin_account');
    assert.equal(event.adminEmail, 'owner@acme.test');
    assert.deepEqual(event.data, { email: 'gone@acme.test' });
    const before = await snapshot();
    const after = await h.asToken(gone, 'POST', `${T}/${h.tenantId}/credentials`, {});
    assert.equal(after.status, 401);
    assert.deepEqual(await snapshot(), before);
    assert.ok(
      (await h.admins.tokens.list(h.tenantId, 'gone@acme.test')).every((t) => t.revokedAt !== undefined),
    );
  });

  it('a revoked or expired token: 401, nothing written', async () => {
    const token = await h.adminToken(h.tenantId, 'owner@acme.test', 'owner');
    const { tokenId } = (await h.admins.tokens.list(h.tenantId, 'owner@acme.test')).at(-1)!;
    const revoke = await h.asToken(h.owner, 'DELETE', `${T}/${h.tenantId}/tokens/${tokenId}`);
    assert.equal(revoke.status, 200);
    const before = await snapshot();
    assert.equal((await h.asToken(token, 'POST', `${T}/${h.tenantId}/credentials`, {})).status, 401);
    // The harness's tokens live 90 days (the default): at their expiry they stop.
    const shortToken = await h.adminToken(h.tenantId, 'owner@acme.test', 'owner');
    h.clock.t += 90 * 86_400_000;
    try {
      assert.equal((await h.asToken(shortToken, 'GET', `${T}/${h.tenantId}`)).status, 401);
    } finally {
      h.clock.t -= 90 * 86_400_000;
    }
    assert.equal(h.adminEvents.length, before.events);
  });

  it('tokens are stored hashed and listed without secret or hash; one administrator cannot revoke another’s token', async () => {
    const token = await h.adminToken(h.tenantId, 'owner@acme.test', 'owner');
    const stored = (await h.admins.tokens.list(h.tenantId, 'owner@acme.test')).at(-1)!;
    assert.notEqual(stored.tokenHash, token);
    assert.ok(!JSON.stringify(stored).includes(token));
    const listed = JSON.stringify(
      await (await h.asToken(h.owner, 'GET', `${T}/${h.tenantId}/tokens`)).json(),
    );
    assert.ok(
      listed.includes(stored.tokenId) && !listed.includes(token) && !listed.includes(stored.tokenHash),
    );
    const theirs = await h.asToken(h.support, 'DELETE', `${T}/${h.tenantId}/tokens/${stored.tokenId}`);
    assert.equal(theirs.status, 404);
    assert.equal((await h.admins.tokens.findByHash(stored.tokenHash))?.revokedAt, undefined);
  });

  it('a token on a tenant its administrator is not in: 404 tenant_not_found; the tenant list shows only theirs', async () => {
    const other = await h.createTenant('Other');
    const res = await h.asToken(h.owner, 'GET', `${T}/${other}/applications`);
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'tenant_not_found');
    const list = (await (await h.asToken(h.owner, 'GET', T)).json()) as { tenants: { tenantId: string }[] };
    assert.deepEqual(
      list.tenants.map((t) => t.tenantId),
      [h.tenantId],
    );
  });

  it('an Owner creates a tenant and becomes its Owner; ownerEmail is only for the bootstrap key', async () => {
    const refused = await h.asToken(h.owner, 'POST', T, { name: 'Mine', ownerEmail: 'x@acme.test' });
    assert.equal(refused.status, 400);
    const res = await h.asToken(h.owner, 'POST', T, { name: 'Mine' });
    assert.equal(res.status, 201);
    const { tenantId: mine } = (await res.json()) as { tenantId: string };
    assert.equal((await h.admins.accounts.get(mine, 'owner@acme.test'))?.role, 'owner');
    assert.equal(h.adminEvents.at(-1)?.adminEmail, 'owner@acme.test');
    assert.equal((await h.asToken(h.support, 'POST', T, { name: 'Not mine' })).status, 403);
  });

  it('adding an administrator without invitation: only the bootstrap key under break-glass, credited to bootstrap-key', async () => {
    const before = await snapshot();
    const byOwner = await h.asToken(h.owner, 'POST', `${T}/${h.tenantId}/administrators`, {
      email: 'direct@acme.test',
      role: 'owner',
    });
    assert.equal(byOwner.status, 403);
    assert.deepEqual(await snapshot(), before);
    const res = await h.admin('POST', `${T}/${h.tenantId}/administrators`, {
      email: 'Direct@Acme.test',
      role: 'owner',
    });
    assert.equal(res.status, 201);
    assert.equal((await h.admins.accounts.get(h.tenantId, 'direct@acme.test'))?.role, 'owner');
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_tenant_invitation_status_approved');
    assert.equal(event.adminEmail, 'bootstrap-key');
    assert.deepEqual(event.data, { email: 'direct@acme.test', role: 'owner', breakGlass: true });
    const again = await h.admin('POST', `${T}/${h.tenantId}/administrators`, {
      email: 'direct@acme.test',
      role: 'support',
    });
    assert.equal(again.status, 409);
  });

  it('the bootstrap key has no personal tokens (403)', async () => {
    const res = await h.admin('POST', `${T}/${h.tenantId}/tokens`, { name: 'x' });
    assert.equal(res.status, 403);
  });
});

describe('the bootstrap key without break-glass', () => {
  const h = startedForSuite(() => startMgmt({ SESAME_ADMIN_BREAK_GLASS: 'off' }));

  it('on an empty install creates a tenant with its first Owner invitation, credited to bootstrap-key', async () => {
    const res = await h.admin('POST', T, {
      name: 'First',
      ownerEmail: 'Founder@First.test',
      ownerLocale: 'de',
    });
    assert.equal(res.status, 201);
    const body = (await res.json()) as { tenantId: string; invitation: { email: string; role: string } };
    assert.deepEqual([body.invitation.email, body.invitation.role], ['founder@first.test', 'owner']);
    assert.equal(h.mail.at(-1)?.to, 'founder@first.test');
    assert.equal(h.mail.at(-1)?.subject, 'Einladung zur Verwaltung von First in Sesame');
    assert.deepEqual(
      h.adminEvents.map((e) => [e.activityType, e.adminEmail]),
      [
        ['administrator_create_tenant', 'bootstrap-key'],
        ['administrator_tenant_invitation', 'bootstrap-key'],
      ],
    );
  });

  it('cannot add an administrator without invitation (403), not even on an empty install', async () => {
    const tenantId = (await h.dir.tenants.list())[0]!.tenantId;
    const res = await h.admin('POST', `${T}/${tenantId}/administrators`, {
      email: 'x@first.test',
      role: 'owner',
    });
    assert.equal(res.status, 403);
    assert.deepEqual(await h.admins.accounts.list(tenantId), []);
  });

  it('once a tenant has an Owner: 403 for every call, nothing written', async () => {
    const tenantId = (await h.dir.tenants.list())[0]!.tenantId;
    await h.admins.accounts.create({ tenantId, email: 'founder@first.test', role: 'owner', createdAt: 1 });
    const events = h.adminEvents.length;
    for (const [method, path, body] of [
      ['POST', T, { name: 'Second' }],
      ['GET', T, undefined],
      ['POST', `${T}/${tenantId}/credentials`, {}],
    ] as const) {
      const res = await h.admin(method, path, body);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.match(((await res.json()) as { error: { message: string } }).error.message, /bootstrap key/);
    }
    assert.equal((await h.dir.tenants.list()).length, 1);
    assert.equal((await h.dir.credentials.list(tenantId)).length, 0);
    assert.equal(h.adminEvents.length, events);
  });
});
