import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { expectMgmtError } from '../../testing/mgmt-harness';
import { startTenantHarness } from '../../testing/tenant-harness';

const T = '/api/v1/admin/tenants';

describe('personal API tokens on the admin API: no token makes tokens, Owners see every token, one tenant per token', () => {
  const h = startedForSuite(() =>
    startTenantHarness('Acme', { owner: 'owner', admin: 'administrator', support: 'support' }),
  );
  const allTokens = async () => h.admins.tokens.list(h.tenantId);
  const idOf = async (token: string) =>
    (await allTokens()).find((t) => t.email === `${token}@acme.test` && t.name === 'test')!.tokenId;

  it('a token creating a token (even one of 366 days): 403 step_up_required, nothing stored, no event', async () => {
    const [tokens, events] = [(await allTokens()).length, h.adminEvents.length];
    for (const body of [{ name: 'child' }, { name: 'child', expiresInDays: 366 }]) {
      for (const caller of [h.owner, h.support]) {
        const res = await h.asToken(caller, 'POST', `${T}/${h.tenantId}/tokens`, body);
        const err = await expectMgmtError(res, 403, 'step_up_required');
        assert.match(err.error.message, /personal API token may not do token\.create.*console session/);
      }
    }
    assert.deepEqual([(await allTokens()).length, h.adminEvents.length], [tokens, events]);
  });

  it('revoking one’s own token publishes administrator_revoke_api_token as its administrator', async () => {
    await h.adminToken(h.tenantId, 'support@acme.test', 'support');
    const target = (await h.admins.tokens.list(h.tenantId, 'support@acme.test')).at(-1)!;
    const res = await h.asToken(h.support, 'DELETE', `${T}/${h.tenantId}/tokens/${target.tokenId}`);
    assert.equal(res.status, 200);
    const event = h.adminEvents.at(-1)!;
    assert.deepEqual(
      [event.activityType, event.adminEmail, event.sessionId, event.tenantId, event.data],
      [
        'administrator_revoke_api_token',
        'support@acme.test',
        await idOf('support'),
        h.tenantId,
        { tokenId: target.tokenId, name: 'test', email: 'support@acme.test' },
      ],
    );
  });

  it('an Owner lists every administrator’s tokens (?all=true) and revokes another’s, which stops at once', async () => {
    const victim = await h.adminToken(h.tenantId, 'admin@acme.test', 'administrator');
    const victimId = (await h.admins.tokens.list(h.tenantId, 'admin@acme.test')).at(-1)!.tokenId;
    const res = await h.asToken(h.owner, 'GET', `${T}/${h.tenantId}/tokens?all=true`);
    assert.equal(res.status, 200);
    const { tokens } = (await res.json()) as { tokens: { tokenId: string; email: string }[] };
    assert.deepEqual(
      tokens.map((t) => [t.tokenId, t.email]),
      (await allTokens()).map((t) => [t.tokenId, t.email]),
    );
    assert.ok(
      tokens.some((t) => t.email === 'admin@acme.test') && tokens.some((t) => t.tokenId === victimId),
    );
    const revoke = await h.asToken(h.owner, 'DELETE', `${T}/${h.tenantId}/tokens/${victimId}`);
    assert.equal(revoke.status, 200);
    const event = h.adminEvents.at(-1)!;
    assert.deepEqual(
      [event.activityType, event.adminEmail, event.data],
      [
        'administrator_revoke_api_token',
        'owner@acme.test',
        { tokenId: victimId, name: 'test', email: 'admin@acme.test' },
      ],
    );
    assert.equal((await h.asToken(victim, 'GET', `${T}/${h.tenantId}`)).status, 401);
  });

  it('an Administrator may not list every token (403) nor revoke an Owner’s (404); nothing changes', async () => {
    const all = await h.asToken(h.admin, 'GET', `${T}/${h.tenantId}/tokens?all=true`);
    await expectMgmtError(all, 403, 'forbidden');
    const ownerTokenId = await idOf('owner');
    const events = h.adminEvents.length;
    const res = await h.asToken(h.admin, 'DELETE', `${T}/${h.tenantId}/tokens/${ownerTokenId}`);
    await expectMgmtError(res, 404, 'token_not_found');
    assert.equal(h.adminEvents.length, events);
    assert.equal((await allTokens()).find((t) => t.tokenId === ownerTokenId)?.revokedAt, undefined);
  });

  it('a token acts only in the tenant it was made in: on its administrator’s other tenant 403 token_tenant_mismatch, nothing written', async () => {
    const other = await h.createTenant('Other');
    await h.admins.accounts.create({
      tenantId: other,
      email: 'owner@acme.test',
      role: 'owner',
      createdAt: 1,
    });
    const before = {
      events: h.adminEvents.length,
      mail: h.mail.length,
      apps: (await h.dir.applications.list(other)).length,
      credentials: (await h.dir.credentials.list(other)).length,
      invitations: (await h.admins.invitations.list(other)).length,
    };
    const calls: [string, string, unknown?][] = [
      ['GET', `${T}/${other}`],
      ['GET', `${T}/${other}/applications`],
      ['POST', `${T}/${other}/applications`, { name: 'Nope', redirectUris: ['https://x.test/cb'] }],
      ['POST', `${T}/${other}/credentials`, {}],
      ['POST', `${T}/${other}/invitations`, { email: 'mallory@evil.test', role: 'owner' }],
      ['PATCH', `${T}/${other}`, { name: 'Renamed' }],
    ];
    for (const [method, path, body] of calls) {
      await expectMgmtError(await h.asToken(h.owner, method, path, body), 403, 'token_tenant_mismatch');
    }
    assert.deepEqual(
      {
        events: h.adminEvents.length,
        mail: h.mail.length,
        apps: (await h.dir.applications.list(other)).length,
        credentials: (await h.dir.credentials.list(other)).length,
        invitations: (await h.admins.invitations.list(other)).length,
      },
      before,
    );
    assert.equal((await h.dir.tenants.get(other))?.name, 'Other');
    // A token made in the other tenant works there.
    const there = await h.adminToken(other, 'owner@acme.test', 'owner');
    assert.equal((await h.asToken(there, 'GET', `${T}/${other}/applications`)).status, 200);
  });
});
