import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MailDeliveryError } from '@sesame/mail';
import { startedForSuite } from '@sesame/testing/suite';
import { ADMIN_KEY, expectMgmtError, startMgmt } from '../../testing/mgmt-harness';

const T = '/api/v1/admin/tenants';

/** Names that must never be stored: a header break, a bidi override, a zero-width space, a C1 control. */
const hostileNames = ['Acme\r\nBcc: x@evil.test', 'Acme\u202Egpj.exe', 'Ac\u200Bme', 'Acme\u0085'];

describe('admin API: bad input is a 400 naming the field, nothing stored', () => {
  const h = startedForSuite(startMgmt);

  it('a tenant name with CR/LF, a bidi override, a zero-width or C1 character: 400 fields.name, no tenant, no event', async () => {
    for (const name of hostileNames) {
      const tenants = (await h.dir.tenants.list()).length;
      const events = h.adminEvents.length;
      await expectMgmtError(await h.admin('POST', T, { name }), 400, 'invalid_request', 'name');
      assert.equal((await h.dir.tenants.list()).length, tenants, JSON.stringify(name));
      assert.equal(h.adminEvents.length, events);
    }
  });

  it('renaming a tenant to such a name: 400 fields.name, the name unchanged', async () => {
    const tenantId = await h.createTenant('Acme');
    for (const name of hostileNames) {
      await expectMgmtError(
        await h.admin('PATCH', `${T}/${tenantId}`, { name }),
        400,
        'invalid_request',
        'name',
      );
    }
    assert.equal((await h.dir.tenants.get(tenantId))?.name, 'Acme');
  });

  it('an application name with such characters: 400 fields.name on create and on update', async () => {
    const tenantId = await h.createTenant('Apps');
    const apps = `${T}/${tenantId}/applications`;
    const { appId } = await h.createApp<{ appId: string }>(tenantId, { name: 'Shop' });
    for (const name of hostileNames) {
      await expectMgmtError(await h.admin('POST', apps, { name }), 400, 'invalid_request', 'name');
      await expectMgmtError(
        await h.admin('PATCH', `${apps}/${appId}`, { name }),
        400,
        'invalid_request',
        'name',
      );
    }
    const stored = await h.dir.applications.list(tenantId);
    assert.deepEqual(
      stored.map((a) => a.name),
      ['Shop'],
    );
  });

  it('branding displayName with a bidi override: 400 fields.displayName', async () => {
    const tenantId = await h.createTenant('Brand');
    const res = await h.admin('PUT', `${T}/${tenantId}/branding`, { displayName: 'Acme\u202Etxt' });
    await expectMgmtError(res, 400, 'invalid_request', 'displayName');
  });

  it('a tenant stored earlier with CR/LF in its name still invites: 201, the mail subject one line, the event published', async () => {
    const tenantId = await h.createTenant('Old');
    // Older data, written before names were checked.
    await h.dir.tenants.update(tenantId, { name: 'Old\r\nBcc: x@evil.test', updatedAt: 1 });
    const events = h.adminEvents.length;
    const res = await h.admin('POST', `${T}/${tenantId}/invitations`, {
      email: 'new@old.test',
      role: 'administrator',
    });
    assert.equal(res.status, 201, await res.clone().text());
    const mail = h.mail.at(-1)!;
    assert.equal(mail.to, 'new@old.test');
    assert.doesNotMatch(mail.subject, /[\r\n]/);
    assert.match(mail.subject, /Old Bcc: x@evil\.test/);
    assert.equal(h.adminEvents.length, events + 1);
    assert.equal(h.adminEvents.at(-1)?.activityType, 'administrator_tenant_invitation');
  });

  it('an invitation email with a control character: 400 fields.email, nothing stored', async () => {
    const tenantId = await h.createTenant('Ctl');
    const res = await h.admin('POST', `${T}/${tenantId}/invitations`, {
      email: 'a\u0000b@ctl.test',
      role: 'administrator',
    });
    await expectMgmtError(res, 400, 'invalid_request', 'email');
    assert.equal((await h.admins.invitations.list(tenantId)).length, 0);
  });

  it('an invitation whose mail cannot be sent is not stored and publishes nothing (503, retry later)', async () => {
    const tenantId = await h.createTenant('Nomail');
    const events = h.adminEvents.length;
    h.mailFailure = new MailDeliveryError('delivery to nomail.test failed', 'ECONNREFUSED', undefined);
    try {
      const res = await h.admin('POST', `${T}/${tenantId}/invitations`, {
        email: 'new@nomail.test',
        role: 'administrator',
      });
      await expectMgmtError(res, 503, 'temporarily_unavailable');
    } finally {
      h.mailFailure = undefined;
    }
    assert.equal((await h.admins.invitations.list(tenantId)).length, 0);
    assert.equal(h.adminEvents.length, events);
  });

  it('malformed JSON, a wrong content type and an array body are 400 invalid_request, never 500', async () => {
    await expectMgmtError(await h.admin('POST', T, '{"name": "Acme"'), 400, 'invalid_request');
    await expectMgmtError(
      await h.admin('POST', T, 'name=Acme', { 'content-type': 'application/x-www-form-urlencoded' }),
      400,
      'invalid_request',
    );
    await expectMgmtError(await h.admin('POST', T, '["Acme"]'), 400, 'invalid_request');
    const tenants = (await h.dir.tenants.list()).length;
    const notUtf8 = Buffer.from([...Buffer.from('{"name":"Acme'), 0xff, 0xfe, ...Buffer.from('"}')]);
    await expectMgmtError(
      await fetch(`${h.url}${T}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body: notUtf8,
      }),
      400,
      'invalid_request',
    );
    assert.equal((await h.dir.tenants.list()).length, tenants, 'no tenant named with U+FFFD');
    await expectMgmtError(
      await h.admin('POST', T, '{"name":"Acme"}', { 'content-type': 'application/json; charset=latin-7' }),
      400,
      'invalid_request',
    );
  });
});
