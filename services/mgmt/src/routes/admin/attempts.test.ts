import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type MgmtHarness, startMgmt } from '../../testing/mgmt-harness';
import { flowOf, supportData } from '../../testing/support-data';
import { MemorySupport } from '../../testing/support-memory';

type Json = Record<string, unknown>;

/** Issue 38: sign-in attempts of an address with no account, listed by it and erased through the admin API. */
describe('admin API: attempts by typed address', () => {
  let h: MgmtHarness;
  let tenantId: string;
  let other: string;
  let support: string;
  let admin: string;
  const port = new MemorySupport();
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await h.asToken(token, method, `/api/v1/admin/tenants/${tenantId}${path}`, body);
    return { status: res.status, body: (await res.json()) as Json };
  };
  const ghost = (tenant: string, id: string, at: number, facts = {}) =>
    port.addFlow(
      flowOf(tenant, id, at, ['auth_start_oidc', 'desktop_login_page', 'email_verification_failure'], {
        attemptedEmail: 'ghost@example.com',
        status: 'failure',
        ...facts,
      }),
    );
  beforeAll(async () => {
    h = await startMgmt({}, { support: port });
    tenantId = await h.createTenant('Acme');
    other = await h.createTenant('Other');
    supportData(port, tenantId, other);
    ghost(tenantId, 'ghost-1', Date.UTC(2026, 0, 2));
    ghost(tenantId, 'ghost-2', Date.UTC(2026, 0, 3), { status: undefined });
    ghost(other, 'ghost-other', Date.UTC(2026, 0, 3));
    support = await h.adminToken(tenantId, 'support@acme.test', 'support');
    admin = await h.adminToken(tenantId, 'admin@acme.test', 'administrator');
  });
  afterAll(() => h.stop());

  it('GET …/flows?email= lists the attempts of an address (any case) in this tenant, with the typed address', async () => {
    const { status, body } = await call(support, 'GET', '/flows?email=Ghost@Example.com');
    assert.equal(status, 200);
    const flows = body.flows as Json[];
    assert.deepEqual(
      flows.map((f) => [f.id, f.attemptedEmail, f.userId]),
      [
        ['ghost-2', 'ghost@example.com', undefined],
        ['ghost-1', 'ghost@example.com', undefined],
      ],
    );
    const bad = await call(support, 'GET', '/flows?email=not-an-address');
    assert.equal(bad.status, 400);
    assert.equal((bad.body.error as Json).code, 'invalid_request');
  });

  it('POST …/attempts/erase: Support is refused (403), bad input is a 400, never a 500', async () => {
    const refused = await call(support, 'POST', '/attempts/erase', { email: 'ghost@example.com' });
    assert.equal(refused.status, 403);
    assert.equal(port.flows.filter((f) => f.attemptedEmail === 'ghost@example.com').length, 3);
    for (const body of [{}, { email: 'nope' }, { email: ['a@b.c'] }, { email: 'a@b.c', extra: 1 }]) {
      const { status, body: answer } = await call(admin, 'POST', '/attempts/erase', body);
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal((answer.error as Json).code, 'invalid_request');
    }
  });

  it('an Administrator erases the attempts of the address in this tenant only, as an admin event with the actor', async () => {
    const before = h.adminEvents.length;
    const { status, body } = await call(admin, 'POST', '/attempts/erase', { email: ' GHOST@example.com ' });
    assert.equal(status, 200);
    assert.deepEqual(body, { email: 'ghost@example.com', erased: 2 });
    assert.deepEqual(
      port.flows.filter((f) => f.attemptedEmail === 'ghost@example.com').map((f) => f.id),
      ['ghost-other'],
    );
    assert.deepEqual((await call(support, 'GET', '/flows?email=ghost@example.com')).body.flows, []);
    const events = h.adminEvents.slice(before);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.activityType, 'administrator_erase_attempts');
    assert.equal(events[0]!.adminEmail, 'admin@acme.test');
    assert.equal(events[0]!.tenantId, tenantId);
    assert.deepEqual(events[0]!.data, { email: 'ghost@example.com', erased: 2 });
  });
});
