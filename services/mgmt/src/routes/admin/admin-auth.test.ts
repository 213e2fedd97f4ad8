import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { type MgmtHarness, startMgmt } from '../../testing/mgmt-harness';

describe('admin API authentication and context', () => {
  const h = startedForSuite(startMgmt);

  it('refuses a missing or wrong admin key with 401 invalid_admin_key and WWW-Authenticate, and changes nothing', async () => {
    for (const authorization of [undefined, 'Bearer wrong-key-000000000', 'Basic abc', 'Bearer ']) {
      const res = await fetch(`${h.url}/api/v1/admin/tenants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ name: 'x' }),
      });
      assert.equal(res.status, 401, String(authorization));
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="sesame-admin"');
      const body = (await res.json()) as { status: string; error: { code: string } };
      assert.equal(body.status, 'error');
      assert.equal(body.error.code, 'invalid_admin_key');
    }
    assert.deepEqual(await h.dir.tenants.list(), []);
    assert.equal(h.adminEvents.length, 0);
  });

  it('records the token’s administrator, the token id as session and the client IP; forged identity headers are ignored', async () => {
    h.clock.t = 1_700_000_000_000;
    const tenantId = await h.createTenant('Ctx');
    const token = await h.adminToken(tenantId, 'alice@example.com', 'owner');
    const { tokenId } = (await h.admins.tokens.list(tenantId, 'alice@example.com')).at(-1)!;
    const res = await h.admin(
      'PATCH',
      `/api/v1/admin/tenants/${tenantId}`,
      { name: 'Ctx2' },
      {
        authorization: `Bearer ${token}`,
        'x-sesame-admin-email': 'mallory@example.com',
        'x-sesame-session-id': 'forged-session',
      },
    );
    assert.equal(res.status, 200);
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.adminEmail, 'alice@example.com');
    assert.equal(event.sessionId, tokenId);
    assert.ok(['127.0.0.1', '::ffff:127.0.0.1'].includes(event.clientIp), event.clientIp);
    assert.equal(event.timestampMs, 1_700_000_000_000);
    assert.ok(!h.adminEvents.some((e) => e.adminEmail === 'mallory@example.com'));
  });

  it('credits the bootstrap key’s events to bootstrap-key, never to a named person, with a new session id per call', async () => {
    await h.admin(
      'POST',
      '/api/v1/admin/tenants',
      { name: 'D1' },
      { 'x-sesame-admin-email': 'ceo@example.com' },
    );
    await h.admin('POST', '/api/v1/admin/tenants', { name: 'D2' });
    const [a, b] = h.adminEvents.slice(-2);
    assert.equal(a?.adminEmail, 'bootstrap-key');
    assert.equal(b?.adminEmail, 'bootstrap-key');
    assert.ok(a?.sessionId && b?.sessionId && a.sessionId !== b.sessionId);
  });

  it('accepts an administrator with a local address such as demo-seed@localhost', async () => {
    const tenantId = await h.createTenant('L');
    const token = await h.adminToken(tenantId, 'demo-seed@localhost', 'administrator');
    const res = await h.asToken(token, 'POST', `/api/v1/admin/tenants/${tenantId}/credentials`, {});
    assert.equal(res.status, 201);
    assert.equal(h.adminEvents.at(-1)?.adminEmail, 'demo-seed@localhost');
  });

  it('takes the client IP from X-Forwarded-For only from a trusted (loopback) proxy', async () => {
    await h.admin('POST', '/api/v1/admin/tenants', { name: 'P' }, { 'x-forwarded-for': '203.0.113.7' });
    assert.equal(h.adminEvents.at(-1)?.clientIp, '203.0.113.7');
  });

  it('ignores X-Forwarded-For from a caller that is not a trusted proxy', async () => {
    const untrusted = await startMgmt({ SESAME_TRUSTED_PROXIES: '10.0.0.0/8' });
    try {
      const res = await untrusted.admin(
        'POST',
        '/api/v1/admin/tenants',
        { name: 'U' },
        { 'x-forwarded-for': '203.0.113.7' },
      );
      assert.equal(res.status, 201);
      assert.equal(untrusted.adminEvents.at(-1)?.clientIp, '127.0.0.1');
    } finally {
      await untrusted.stop();
    }
  });

  it('answers malformed JSON and unknown admin paths in the management error shape', async () => {
    const bad = await h.admin('POST', '/api/v1/admin/tenants', '{"name":', {});
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), {
      status: 'error',
      error: { code: 'invalid_request', message: 'malformed JSON body' },
    });
    const missing = await h.admin('GET', '/api/v1/admin/nothing-here');
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { error: { code: string } }).error.code, 'not_found');
  });
});

describe('admin API key guessing', () => {
  const h = startedForSuite(() =>
    startMgmt({ SESAME_ADMIN_KEY_FAILURES_PER_IP: '3', SESAME_ADMIN_KEY_FAILURE_WINDOW_S: '60' }),
  );

  it('after 3 wrong keys from one IP answers 429 with Retry-After, even to the right key', async () => {
    for (let i = 0; i < 3; i++) {
      const wrong = await h.admin('GET', '/api/v1/admin/tenants', undefined, {
        authorization: `Bearer wrong-key-${i}-0000000`,
      });
      assert.equal(wrong.status, 401);
    }
    const right = await h.admin('GET', '/api/v1/admin/tenants');
    assert.equal(right.status, 429);
    const retryAfter = Number(right.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 60, String(retryAfter));
    assert.equal(((await right.json()) as { error: { code: string } }).error.code, 'temporarily_unavailable');
  });
});

describe('admin API without a configured key', () => {
  it('refuses every key, including the once-published dev-admin-key', async () => {
    const h = await startMgmt({ SESAME_ADMIN_KEY: '' });
    try {
      for (const key of ['dev-admin-key', 'test-admin-key-0123456789']) {
        const res = await h.admin('GET', '/api/v1/admin/tenants', undefined, {
          authorization: `Bearer ${key}`,
        });
        assert.equal(res.status, 401, key);
      }
    } finally {
      await h.stop();
    }
  });
});
