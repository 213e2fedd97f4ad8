import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { startSignedInConsole } from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';

const csrf = ConsoleBrowser.csrfOf;

describe('console pages: Personal API tokens, Applications, Administrators (CSRF, roles, step-up)', () => {
  const acme = startedForSuite(() => startSignedInConsole({ owner: 'owner', support: 'support' }));

  const writes = async () => ({
    events: acme.h.adminEvents.length,
    apps: (await acme.h.dir.applications.list(acme.tenantId)).length,
    tokens: (await acme.h.admins.tokens.list(acme.tenantId, 'owner@acme.test')).length,
    invitations: (await acme.h.admins.invitations.list(acme.tenantId)).length,
    admins: (await acme.h.admins.accounts.list(acme.tenantId)).length,
  });

  it('Personal API tokens: New token → Token name → Create token shows the Token once, and it works on the admin API', async () => {
    const list = await (await acme.owner.get('/console/tokens')).text();
    assert.match(list, /<a class="button" href="\/console\/tokens\?new">New token<\/a>/);
    const form = await (await acme.owner.get('/console/tokens?new')).text();
    assert.match(form, /<label for="token-name">Token name<\/label>/);
    assert.match(form, /<button type="submit">Create token<\/button>/);
    const res = await acme.owner.post('/console/tokens', { csrf: csrf(form), name: 'ci' });
    assert.equal(res.status, 201);
    const html = await res.text();
    assert.match(html, /<label for="new-token">Token<\/label>/);
    const token = /id="new-token" type="text" readonly value="(sesame_pat_[\w-]+)"/.exec(html)?.[1];
    assert.ok(token);
    const api = await acme.h.asToken(token, 'GET', `/api/v1/admin/tenants/${acme.tenantId}/administrators`);
    assert.equal(api.status, 200);
    const again = await (await acme.owner.get('/console/tokens')).text();
    assert.ok(!again.includes(token), 'shown only once');
    assert.match(again, /aria-label="Revoke ci"/);
  });

  it('Revoke ends the token at once', async () => {
    const form = await (await acme.owner.get('/console/tokens?new')).text();
    const html = await (await acme.owner.post('/console/tokens', { csrf: csrf(form), name: 'short' })).text();
    const token = /value="(sesame_pat_[\w-]+)"/.exec(html)![1]!;
    const { tokenId } = (await acme.h.admins.tokens.list(acme.tenantId, 'owner@acme.test')).find(
      (t) => t.name === 'short',
    )!;
    const res = await acme.owner.post(`/console/tokens/${tokenId}/revoke`, {
      confirm: 'yes',
      csrf: csrf(html),
    });
    assert.equal(res.status, 303);
    assert.equal((await acme.h.asToken(token, 'GET', `/api/v1/admin/tenants/${acme.tenantId}`)).status, 401);
  });

  it('a POST without CSRF, or with another session’s, is a 403 console page and writes nothing', async () => {
    const before = await writes();
    const supportPage = await (await acme.support.get('/console/tokens')).text();
    for (const form of [{ name: 'x' }, { name: 'x', csrf: csrf(supportPage) }] as Record<string, string>[]) {
      const res = await acme.owner.post('/console/tokens', form);
      assert.equal(res.status, 403);
      assert.match(await res.text(), /This form expired or came from another page/);
    }
    const app = await acme.owner.post('/console/applications', {
      name: 'x',
      redirectUris: 'https://x.test/cb',
    });
    assert.equal(app.status, 403);
    assert.deepEqual(await writes(), before);
  });

  it('Applications: New application → Name, Redirect URIs → Create application shows Client ID and, once, the Client secret', async () => {
    const form = await (await acme.owner.get('/console/applications?new')).text();
    assert.match(form, /<label for="app-name">Name<\/label>/);
    assert.match(form, /<label for="app-redirects">Redirect URIs<\/label>/);
    const res = await acme.owner.post('/console/applications', {
      csrf: csrf(form),
      name: 'Shop',
      redirectUris: 'https://shop.test/cb\r\nhttps://shop.test/cb2\r\n',
    });
    assert.equal(res.status, 201);
    const html = await res.text();
    const clientId = /id="client-id" type="text" readonly value="([^"]+)"/.exec(html)?.[1];
    const secret = /id="client-secret" type="text" readonly value="([^"]+)"/.exec(html)?.[1];
    assert.ok(clientId && secret);
    const { client } = await acme.h.directoryClient.authenticateClient({ clientId, clientSecret: secret });
    assert.deepEqual(client?.redirectUris, ['https://shop.test/cb', 'https://shop.test/cb2']);
    const event = acme.h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_create_application');
    assert.equal(event.adminEmail, 'owner@acme.test');
    assert.ok(event.sessionId && event.sessionId !== acme.owner.cookie);
    const again = await (await acme.owner.get('/console/applications')).text();
    assert.ok(again.includes(clientId) && !again.includes(secret));
  });

  it('Applications: a bad redirect URI is a 400 form marking the field by name and line, everything typed kept', async () => {
    const form = await (await acme.owner.get('/console/applications?new')).text();
    const res = await acme.owner.post('/console/applications', {
      csrf: csrf(form),
      kind: 'spa',
      name: 'Bad',
      redirectUris: 'https://ok.test/cb\nftp://bad.test/cb',
    });
    assert.equal(res.status, 400);
    const html = await res.text();
    assert.match(html, /<input type="radio" id="kind-spa" name="kind" value="spa" checked/);
    assert.match(html, /<input id="app-name" name="name" type="text" maxlength="200" value="Bad">/);
    assert.match(
      html,
      /<textarea id="app-redirects" name="redirectUris" rows="3" aria-describedby="app-redirects-error app-redirects-hint" aria-invalid="true" autofocus>https:\/\/ok\.test\/cb\nftp:\/\/bad\.test\/cb<\/textarea>/,
    );
    assert.match(html, /<p id="app-redirects-error" class="field-error">Redirect URIs: line 2 must be https/);
    assert.match(html, /role="alert">[\s\S]*<a href="#app-redirects">Redirect URIs: line 2/);
  });

  it('Support: no New application button, the page and a forged POST are 403, nothing written', async () => {
    const page = await acme.support.get('/console/applications');
    assert.equal(page.status, 403);
    const html = await page.text();
    assert.doesNotMatch(html, /New application/);
    const before = await writes();
    const tokens = await (await acme.support.get('/console/tokens')).text();
    const forged = await acme.support.post('/console/applications', {
      csrf: csrf(tokens),
      name: 'Nope',
      redirectUris: 'https://x.test/cb',
    });
    assert.equal(forged.status, 403);
    assert.match(await forged.text(), /Your role does not allow this/);
    assert.deepEqual(await writes(), before);
  });

  it('Administrators: Invite administrator → Email address, Role (Owner/Administrator/Support) → Send invitation', async () => {
    const page = await (await acme.owner.get('/console/administrators')).text();
    assert.match(page, /<label for="invite-email">Email address<\/label>/);
    assert.match(page, /<label for="invite-role">Role<\/label>/);
    for (const option of ['Owner', 'Administrator', 'Support'])
      assert.match(page, new RegExp(`>${option}</option>`));
    assert.match(page, /<button type="submit">Send invitation<\/button>/);
    // The mail's language: the console's own by default, any of the three on request.
    assert.match(page, /<label for="invite-locale">Invitation language<\/label>/);
    assert.match(page, /<option value="en" selected>English<\/option><option value="de">German<\/option>/);
    const res = await acme.owner.post('/console/administrators/invite', {
      csrf: csrf(page),
      email: 'New@Acme.test',
      role: 'support',
      locale: 'fr',
    });
    assert.equal(res.status, 201);
    assert.match(await res.text(), /Invitation sent to new@acme\.test/);
    assert.equal(acme.h.mail.at(-1)?.to, 'new@acme.test');
    assert.match(acme.h.mail.at(-1)!.subject, /^Invitation à administrer /);
    const sent = acme.h.mail.length;
    const bad = await acme.owner.post('/console/administrators/invite', {
      csrf: csrf(page),
      email: 'other@acme.test',
      role: 'support',
      locale: 'xx',
    });
    assert.equal(bad.status, 400);
    const badPage = await bad.text();
    assert.match(badPage, /^<!doctype html>/i, 'a console page, not a stack trace');
    assert.doesNotMatch(badPage, /at [\w.]+ \(/);
    assert.equal(acme.h.mail.length, sent, 'nothing mailed');
    const event = acme.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [event.activityType, event.adminEmail, event.data],
      ['administrator_tenant_invitation', 'owner@acme.test', { email: 'new@acme.test' }],
    );
  });

  it('an invitation link: another email gets 403, the invitee opens it and accepts once, a reuse gets 410', async () => {
    const link = /\/console\/invitations\/[\w-]+/.exec(acme.h.mail.at(-1)!.text)![0];
    const mallory = new ConsoleBrowser(acme.h.url, acme.provider);
    await mallory.signIn('mallory@example.com');
    const wrong = await mallory.get(link);
    assert.equal(wrong.status, 403);
    assert.match(await wrong.text(), /for another email address/);
    assert.equal(await acme.h.admins.accounts.get(acme.tenantId, 'mallory@example.com'), undefined);

    const invitee = new ConsoleBrowser(acme.h.url, acme.provider);
    const first = await invitee.get(link);
    assert.equal(first.status, 303, 'not signed in: off to sign in first');
    assert.equal(
      await invitee.signIn(
        'new@acme.test',
        new URL(first.headers.get('location')!, acme.h.url).searchParams.get('return')!,
      ),
      link,
    );
    const page = await invitee.get(link);
    assert.equal(page.status, 200, 'opening the link shows the invitation; it accepts nothing');
    const html = await page.text();
    assert.match(html, /<button type="submit">Accept invitation<\/button>/);
    assert.equal(await acme.h.admins.accounts.get(acme.tenantId, 'new@acme.test'), undefined);
    const accepted = await invitee.post(link, { csrf: csrf(html) });
    assert.equal(accepted.status, 303);
    assert.equal((await acme.h.admins.accounts.get(acme.tenantId, 'new@acme.test'))?.role, 'support');
    assert.ok(
      acme.h.adminEvents.some(
        (e) =>
          e.activityType === 'administrator_tenant_invitation_status_approved' &&
          e.adminEmail === 'new@acme.test',
      ),
    );
    assert.equal((await invitee.get('/console/tokens')).status, 200);
    const reused = await invitee.get(link);
    assert.equal(reused.status, 410);
    assert.match(await reused.text(), /already accepted/);
  });

  it('Remove needs a recent sign-in: after 10 minutes a 403 page offers a fresh sign-in (prompt=login)', async () => {
    const page = await (await acme.owner.get('/console/administrators')).text();
    acme.h.clock.t += 11 * 60_000;
    try {
      const res = await acme.owner.post('/console/administrators/new%40acme.test/remove', {
        confirm: 'yes',
        csrf: csrf(page),
      });
      assert.equal(res.status, 403);
      const html = await res.text();
      assert.match(html, /needs a recent sign-in/);
      // (Handlebars escapes = as &#x3D; in attributes: the same URL to a browser.)
      assert.match(
        html,
        /href="\/console\/signin\?return&#x3D;%2Fconsole%2Fadministrators&amp;prompt&#x3D;login"/,
      );
      assert.ok(await acme.h.admins.accounts.get(acme.tenantId, 'new@acme.test'), 'nothing removed');
    } finally {
      acme.h.clock.t -= 11 * 60_000;
    }
  });

  it('a sign-in answered from an old Sesame session (auth_time 11 minutes ago) is not fresh enough for step-up', async () => {
    const old = new ConsoleBrowser(acme.h.url, acme.provider);
    acme.provider.authTime = Math.floor((acme.h.clock.now() - 11 * 60_000) / 1000);
    try {
      await old.signIn('owner@acme.test');
    } finally {
      acme.provider.authTime = undefined;
    }
    const form = await (await old.get('/console/tokens?new')).text();
    const res = await old.post('/console/tokens', { csrf: csrf(form), name: 'stale' });
    assert.equal(res.status, 403);
    assert.match(await res.text(), /needs a recent sign-in/);
    await old.signIn('owner@acme.test', '/console/tokens', true);
    const fresh = await (await old.get('/console/tokens?new')).text();
    assert.equal((await old.post('/console/tokens', { csrf: csrf(fresh), name: 'fresh' })).status, 201);
  });

  it('Remove: the removed administrator’s session ends at once; the last Owner cannot be removed', async () => {
    const removed = new ConsoleBrowser(acme.h.url, acme.provider);
    await removed.signIn('new@acme.test');
    assert.equal((await removed.get('/console/tokens')).status, 200);
    const page = await (await acme.owner.get('/console/administrators')).text();
    const res = await acme.owner.post('/console/administrators/new%40acme.test/remove', {
      confirm: 'yes',
      csrf: csrf(page),
    });
    assert.equal(res.status, 303);
    const event = acme.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [event.activityType, event.adminEmail, event.data],
      ['administrator_remove_admin_account', 'owner@acme.test', { email: 'new@acme.test' }],
    );
    assert.equal((await removed.get('/console/tokens')).status, 403);
    const last = await acme.owner.post('/console/administrators/owner%40acme.test/remove', {
      confirm: 'yes',
      csrf: csrf(page),
    });
    assert.equal(last.status, 409);
    assert.ok(await acme.h.admins.accounts.get(acme.tenantId, 'owner@acme.test'));
  });

  it('Support cannot see the invitation form nor invite', async () => {
    const page = await acme.support.get('/console/administrators');
    assert.equal(page.status, 403);
    const tokens = await (await acme.support.get('/console/tokens')).text();
    const before = await writes();
    const res = await acme.support.post('/console/administrators/invite', {
      csrf: csrf(tokens),
      email: 'x@acme.test',
      role: 'owner',
    });
    assert.equal(res.status, 403);
    assert.deepEqual(await writes(), before);
  });
});
