import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { startSignedInConsole } from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';

const csrf = ConsoleBrowser.csrfOf;

describe('console: pending invitations (Resend, Cancel), the locked invited address, the welcome, Last sign-in', () => {
  const acme = startedForSuite(() => startSignedInConsole({ owner: 'owner' }));
  const linkOf = (to: string) => {
    const mail = acme.h.mail.filter((m) => m.to === to).at(-1)!;
    return /\/console\/invitations\/[\w-]+/.exec(mail.text)![0];
  };
  const invite = async (email: string, role: string) => {
    const page = await (await acme.owner.get('/console/administrators')).text();
    const res = await acme.owner.post('/console/administrators/invite', { csrf: csrf(page), email, role });
    assert.equal(res.status, 201);
  };
  const pending = async (email: string) =>
    (await acme.h.admins.invitations.list(acme.tenantId)).filter(
      (i) => i.email === email && i.acceptedAt === undefined && i.cancelledAt === undefined,
    );

  it('a pending invitation is listed with its role, who invited, its expiry, Resend and Cancel', async () => {
    await invite('pat@acme.test', 'support');
    const page = await (await acme.owner.get('/console/administrators')).text();
    assert.match(
      page,
      /<tr><td>pat@acme\.test<\/td><td>Support<\/td><td>Invited, waiting for acceptance<br><small>Invited by owner@acme\.test, valid until \d{4}-\d\d-\d\d \d\d:\d\d UTC<\/small><\/td>/,
    );
    assert.match(page, /aria-label="Resend invitation to pat@acme\.test">Resend<\/button>/);
    assert.match(page, /aria-label="Cancel invitation pat@acme\.test">Cancel invitation<\/button>/);
  });

  it('Resend mails a new link with the same role and a new expiry; the old link no longer works', async () => {
    const old = linkOf('pat@acme.test');
    const [before] = await pending('pat@acme.test');
    acme.h.clock.t += 60_000;
    const page = await (await acme.owner.get('/console/administrators')).text();
    const mails = acme.h.mail.length;
    const res = await acme.owner.post(`/console/administrators/invitations/${before!.invitationId}/resend`, {
      csrf: csrf(page),
    });
    assert.equal(res.status, 200);
    assert.match(
      await res.text(),
      /A new invitation was sent to pat@acme\.test; the earlier link no longer works\./,
    );
    assert.equal(acme.h.mail.length, mails + 1);
    const [after, ...more] = await pending('pat@acme.test');
    assert.equal(more.length, 0, 'one live invitation per address');
    assert.notEqual(after!.invitationId, before!.invitationId);
    assert.equal(after!.role, 'support');
    assert.ok(after!.expiresAt > before!.expiresAt);
    assert.notEqual(linkOf('pat@acme.test'), old);
    const pat = new ConsoleBrowser(acme.h.url, acme.provider);
    await pat.signIn('pat@acme.test');
    assert.equal((await pat.get(old)).status, 410);
  });

  it('signed out, the invitation link signs in starting from the invited address (login_hint)', async () => {
    const link = linkOf('pat@acme.test');
    const stranger = new ConsoleBrowser(acme.h.url, acme.provider);
    const res = await stranger.get(link);
    assert.equal(res.status, 303);
    const signin = res.headers.get('location')!;
    assert.equal(new URL(signin, acme.h.url).searchParams.get('login_hint'), 'pat@acme.test');
    const authorize = (await stranger.get(signin)).headers.get('location')!;
    assert.equal(new URL(authorize).searchParams.get('login_hint'), 'pat@acme.test');
  });

  it('the invitation page shows the invited address locked (readonly), who invited, the tenant and the role', async () => {
    const pat = new ConsoleBrowser(acme.h.url, acme.provider);
    await pat.signIn('pat@acme.test');
    const html = await (await pat.get(linkOf('pat@acme.test'))).text();
    assert.match(html, /<label for="invitation-email">Email address<\/label>/);
    assert.match(html, /<input id="invitation-email" type="email" value="pat@acme\.test" readonly/);
    assert.match(html, /owner@acme\.test invites you \(pat@acme\.test\) to administer Acme/);
    assert.match(html, /<dt>Role<\/dt><dd>Support<\/dd>/);
  });

  it('accepting welcomes Support on Users; the accepted invitation leaves the pending list', async () => {
    const pat = new ConsoleBrowser(acme.h.url, acme.provider);
    await pat.signIn('pat@acme.test');
    const link = linkOf('pat@acme.test');
    const res = await pat.post(link, { csrf: csrf(await (await pat.get(link)).text()) });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/console/users?welcome');
    const page = await (await acme.owner.get('/console/administrators')).text();
    assert.doesNotMatch(page, /Resend invitation to pat@acme\.test/);
    assert.match(page, /<tr><td>pat@acme\.test<\/td><td>Support<\/td><td>\d{4}-\d\d-\d\d \d\d:\d\d<\/td>/);
  });

  it('an Administrator is welcomed by name, role and tenant on the tenant’s first page', async () => {
    await invite('ada@acme.test', 'administrator');
    const ada = new ConsoleBrowser(acme.h.url, acme.provider);
    await ada.signIn('ada@acme.test');
    const link = linkOf('ada@acme.test');
    const accepted = await ada.post(link, { csrf: csrf(await (await ada.get(link)).text()) });
    assert.equal(accepted.headers.get('location'), '/console/?welcome');
    const first = await ada.get('/console/?welcome');
    assert.equal(first.status, 303);
    const target = first.headers.get('location')!;
    assert.match(target, /\?welcome$/);
    const html = await (await ada.get(target)).text();
    assert.match(
      html,
      /<p class="notice" role="status">Welcome, ada@acme\.test! You are now Administrator of Acme\.<\/p>/,
    );
    assert.doesNotMatch(await (await ada.get(target.replace('?welcome', ''))).text(), /Welcome, /);
  });

  it('Last sign-in is set at every console sign-in, a second one by the same person too', async () => {
    const b = new ConsoleBrowser(acme.h.url, acme.provider);
    acme.h.clock.t += 5 * 60_000;
    await b.signIn('owner@acme.test');
    const first = (await acme.h.admins.accounts.get(acme.tenantId, 'owner@acme.test'))?.lastSignInAt;
    assert.equal(first, acme.h.clock.now());
    acme.h.clock.t += 5 * 60_000;
    await b.signIn('owner@acme.test', '/console/tokens', true);
    assert.equal(
      (await acme.h.admins.accounts.get(acme.tenantId, 'owner@acme.test'))?.lastSignInAt,
      acme.h.clock.now(),
    );
  });
});
