import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { startSignedInConsole } from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';

const csrf = ConsoleBrowser.csrfOf;
const HOUR = 3_600_000;

describe('console: invitations under control (the invitation page, cancel, voided with their people, limit)', () => {
  const acme = startedForSuite(() => startSignedInConsole({ owner: 'owner', manager: 'administrator' }));
  const T = () => `/api/v1/admin/tenants/${acme.tenantId}`;
  const linkOf = (to: string) => {
    const mail = acme.h.mail.filter((m) => m.to === to).at(-1)!;
    return /\/console\/invitations\/[\w-]+/.exec(mail.text)![0];
  };
  const inviteInConsole = async (email: string, role: string) => {
    const page = await (await acme.owner.get('/console/administrators')).text();
    return acme.owner.post('/console/administrators/invite', { csrf: csrf(page), email, role });
  };
  const browserOf = async (email: string) => {
    const b = new ConsoleBrowser(acme.h.url, acme.provider);
    await b.signIn(email);
    return b;
  };

  it('the invitation page names who invited, the tenant, the role and the expiry, in English, German and French; opening it writes nothing', async () => {
    assert.equal((await inviteInConsole('reader@acme.test', 'administrator')).status, 201);
    const link = linkOf('reader@acme.test');
    const reader = await browserOf('reader@acme.test');
    const expires = new Date(acme.h.clock.now() + 72 * HOUR).toISOString().slice(0, 16).replace('T', ' ');
    const events = acme.h.adminEvents.length;
    const inLanguage = async (lang: string) =>
      (
        await fetch(`${acme.h.url}${link}`, {
          headers: { cookie: `sesame-console=${reader.cookie}`, 'accept-language': lang },
        })
      ).text();
    const en = await inLanguage('en');
    assert.match(en, /<h1>Invitation to administer Acme<\/h1>/);
    assert.match(en, /<dt>Invited by<\/dt><dd>owner@acme\.test<\/dd>/);
    assert.match(en, /<dt>Role<\/dt><dd>Administrator<\/dd>/);
    assert.match(en, new RegExp(`<dt>Valid until</dt><dd>${expires} UTC</dd>`));
    assert.match(en, /<button type="submit">Accept invitation<\/button>/);
    const de = await inLanguage('de');
    assert.match(de, /<html lang="de"/);
    assert.match(de, /<dt>Eingeladen von<\/dt><dd>owner@acme\.test<\/dd>/);
    assert.match(de, /<button type="submit">Einladung annehmen<\/button>/);
    const fr = await inLanguage('fr');
    assert.match(fr, /<dt>Invité par<\/dt><dd>owner@acme\.test<\/dd>/);
    assert.match(fr, /<button type="submit">Accepter l’invitation<\/button>/);
    assert.equal(await acme.h.admins.accounts.get(acme.tenantId, 'reader@acme.test'), undefined);
    assert.equal(acme.h.adminEvents.length, events);
  });

  it('accepting needs the session’s CSRF token: a forged POST is 403 and creates no account', async () => {
    const link = linkOf('reader@acme.test');
    const reader = await browserOf('reader@acme.test');
    const other = await (await acme.owner.get('/console/administrators')).text();
    for (const form of [{}, { csrf: csrf(other) }] as Record<string, string>[]) {
      const res = await reader.post(link, form);
      assert.equal(res.status, 403);
      assert.match(await res.text(), /This form expired or came from another page/);
    }
    assert.equal(await acme.h.admins.accounts.get(acme.tenantId, 'reader@acme.test'), undefined);
  });

  it('Administrators: an Owner sees who invited and until when; Cancel invitation voids the link at once (410 page)', async () => {
    await inviteInConsole('maybe@acme.test', 'owner');
    const link = linkOf('maybe@acme.test');
    const page = await (await acme.owner.get('/console/administrators')).text();
    assert.match(page, /Invited by owner@acme\.test, valid until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const { invitationId } = (await acme.h.admins.invitations.list(acme.tenantId)).find(
      (i) => i.email === 'maybe@acme.test',
    )!;
    assert.match(page, /aria-label="Cancel invitation maybe@acme\.test"/);
    const res = await acme.owner.post(`/console/administrators/invitations/${invitationId}/cancel`, {
      csrf: csrf(page),
    });
    assert.equal(res.status, 200);
    const after = await res.text();
    assert.match(after, /The invitation to maybe@acme\.test is cancelled/);
    assert.doesNotMatch(after, /aria-label="Cancel invitation maybe@acme\.test"/);
    const event = acme.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [event.activityType, event.adminEmail, event.data?.email],
      ['administrator_cancel_invitation', 'owner@acme.test', 'maybe@acme.test'],
    );
    const invitee = await browserOf('maybe@acme.test');
    const refused = await invitee.get(link);
    assert.equal(refused.status, 410);
    assert.match(
      await refused.text(),
      /This invitation was cancelled\. Ask an Owner of the tenant for a new one\./,
    );
    assert.equal(await acme.h.admins.accounts.get(acme.tenantId, 'maybe@acme.test'), undefined);
  });

  it('an Administrator cannot cancel an invitation from the console (403), and it stays usable', async () => {
    await inviteInConsole('stays@acme.test', 'support');
    const { invitationId } = (await acme.h.admins.invitations.list(acme.tenantId)).find(
      (i) => i.email === 'stays@acme.test',
    )!;
    const page = await (await acme.manager.get('/console/administrators')).text();
    assert.doesNotMatch(page, /Cancel invitation/);
    const res = await acme.manager.post(`/console/administrators/invitations/${invitationId}/cancel`, {
      csrf: csrf(page),
    });
    assert.equal(res.status, 403);
    assert.equal((await acme.h.admins.invitations.get(acme.tenantId, invitationId))?.cancelledAt, undefined);
  });

  it('a person removed after joining as Support cannot come back as Owner through a pending Owner invitation', async () => {
    await inviteInConsole('eve@acme.test', 'owner');
    const ownerLink = linkOf('eve@acme.test');
    // Eve joins as Support another way (break-glass) while the Owner invitation is still pending, then is removed.
    await acme.h.admin('POST', `${T()}/administrators`, { email: 'eve@acme.test', role: 'support' });
    const page = await (await acme.owner.get('/console/administrators')).text();
    const removed = await acme.owner.post('/console/administrators/eve%40acme.test/remove', {
      confirm: 'yes',
      csrf: csrf(page),
    });
    assert.equal(removed.status, 303);
    const eve = await browserOf('eve@acme.test');
    const res = await eve.get(ownerLink);
    assert.equal(res.status, 410);
    assert.match(await res.text(), /This invitation was cancelled/);
    const forced = await eve.post(ownerLink, { csrf: 'x' });
    assert.equal(forced.status, 403);
    assert.equal(await acme.h.admins.accounts.get(acme.tenantId, 'eve@acme.test'), undefined);
  });

  it('an invitation made by an Owner who was then removed no longer works', async () => {
    await acme.addAdministrator('second@acme.test', 'owner', 50);
    const second = await browserOf('second@acme.test');
    const form = await (await second.get('/console/administrators')).text();
    await second.post('/console/administrators/invite', {
      csrf: csrf(form),
      email: 'pal@acme.test',
      role: 'owner',
    });
    const link = linkOf('pal@acme.test');
    const page = await (await acme.owner.get('/console/administrators')).text();
    await acme.owner.post('/console/administrators/second%40acme.test/remove', {
      confirm: 'yes',
      csrf: csrf(page),
    });
    const pal = await browserOf('pal@acme.test');
    const res = await pal.get(link);
    assert.equal(res.status, 410);
    assert.match(await res.text(), /This invitation was cancelled/);
    assert.equal(await acme.h.admins.accounts.get(acme.tenantId, 'pal@acme.test'), undefined);
  });

  it('the 11th invitation to one address in a day: a 429 console page naming the limit, nothing mailed', async () => {
    for (let i = 0; i < 10; i++)
      assert.equal((await inviteInConsole('spam@acme.test', 'support')).status, 201);
    const sent = acme.h.mail.length;
    const res = await inviteInConsole('spam@acme.test', 'support');
    assert.equal(res.status, 429);
    assert.match(
      await res.text(),
      /At most 10 invitation mails may go to one address per day\. Try again in 24 hours\./,
    );
    assert.equal(acme.h.mail.length, sent);
  });
});
