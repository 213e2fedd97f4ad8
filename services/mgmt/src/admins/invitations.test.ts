import assert from 'node:assert/strict';
import { beforeEach, describe, it } from '@jest/globals';
import { DEFAULT_TEMPLATES } from '@sesame/branding';
import { MgmtError } from '@sesame/platform';
import type { AdminContext } from '../admin/admin-auth';
import type { AdminEventPublisher } from '../admin/admin-events';
import { memoryBranding } from '../branding/memory';
import { Invitations } from './invitations';
import { memoryAdmins } from './memory';
import type { AdminsRepositories } from './repository';

const tenant = { tenantId: 't1', name: 'Acme & Co', createdAt: 0, updatedAt: 0 };
const caller = { clientIp: '203.0.113.9', sessionId: 'console-session-1' };
const HOUR = 3_600_000;

describe('invitations', () => {
  let now: number;
  let admins: AdminsRepositories;
  let mail: { to: string; subject: string; text: string; html: string }[];
  let published: { admin: AdminContext; tenantId: string; activityType: string }[];
  let invitations: Invitations;
  const emitted: string[] = [];
  const emit = async (_t: string, type: string) => {
    emitted.push(type);
  };

  beforeEach(() => {
    now = 1_000_000;
    admins = memoryAdmins();
    mail = [];
    published = [];
    const events = {
      async publish(admin, tenantId, activityType) {
        published.push({ admin, tenantId, activityType });
        return {} as never;
      },
    } as AdminEventPublisher;
    invitations = new Invitations({
      admins,
      events,
      clock: { now: () => now },
      mailer: { send: async (m) => mail.push(m) },
      consoleUrl: 'https://admin.example/console',
      ttlMs: 72 * HOUR,
    });
  });

  const invite = async (email = 'new@example.com') => {
    await invitations.invite(tenant, email, 'support', emit, 'owner@example.com');
    return /\/console\/invitations\/([\w-]+)/.exec(mail.at(-1)!.text)![1]!;
  };
  const rejectsWith = (p: Promise<unknown>, status: number, code: string) =>
    assert.rejects(
      p,
      (err: unknown) => err instanceof MgmtError && err.status === status && err.code === code,
    );

  it('mails a single-use link stored only as a hash, with the tenant name escaped in HTML', async () => {
    const link = await invite();
    const [stored] = await admins.invitations.list('t1');
    assert.ok(stored && stored.tokenHash !== link && !JSON.stringify(stored).includes(link));
    assert.equal(stored.expiresAt, now + 72 * HOUR);
    assert.match(mail[0]!.html, /Acme &#38; Co/);
    assert.deepEqual(emitted.at(-1), 'administrator_tenant_invitation');
  });

  it("mails in the language the inviter chose: Sesame's text in it, or the tenant's own template in it", async () => {
    await invitations.invite(tenant, 'de@example.com', 'support', emit, 'owner@example.com', 'de');
    assert.equal(mail.at(-1)!.subject, 'Einladung zur Verwaltung von Acme & Co in Sesame');
    assert.match(mail.at(-1)!.html, /<html lang="de"/);
    await invitations.invite(tenant, 'en@example.com', 'support', emit, 'owner@example.com');
    assert.equal(mail.at(-1)!.subject, 'You are invited to administer Acme & Co in Sesame');

    const branding = memoryBranding();
    await branding.putTemplate({
      tenantId: 't1',
      kind: 'admin-invitation',
      locale: 'fr',
      template: { ...DEFAULT_TEMPLATES.fr['admin-invitation'], subject: 'Rejoignez {{tenant}} chez ACME' },
      updatedAt: now,
    });
    const branded = new Invitations({
      admins,
      events: { publish: async () => ({}) as never } as unknown as AdminEventPublisher,
      clock: { now: () => now },
      mailer: { send: async (m) => mail.push(m) },
      consoleUrl: 'https://admin.example/console',
      ttlMs: 72 * HOUR,
      branding,
    });
    await branded.invite(tenant, 'fr@example.com', 'support', emit, 'owner@example.com', 'fr');
    assert.equal(mail.at(-1)!.subject, 'Rejoignez Acme & Co chez ACME');
    // A locale the tenant has no template for still gets Sesame's text in that language.
    await branded.invite(tenant, 'de2@example.com', 'support', emit, 'owner@example.com', 'de');
    assert.equal(mail.at(-1)!.subject, 'Einladung zur Verwaltung von Acme & Co in Sesame');
  });

  it('accepting with the invited email creates the account and credits the approval to the invitee', async () => {
    const link = await invite();
    const account = await invitations.accept(link, 'New@Example.com', caller);
    assert.deepEqual(account, { tenantId: 't1', email: 'new@example.com', role: 'support', createdAt: now });
    assert.deepEqual(published, [
      {
        admin: { ...caller, adminEmail: 'new@example.com' },
        tenantId: 't1',
        activityType: 'administrator_tenant_invitation_status_approved',
      },
    ]);
  });

  it('a reused link: 410 invitation_used, nothing written', async () => {
    const link = await invite();
    await invitations.accept(link, 'new@example.com', caller);
    await admins.accounts.remove('t1', 'new@example.com');
    await rejectsWith(invitations.accept(link, 'new@example.com', caller), 410, 'invitation_used');
    assert.equal(await admins.accounts.get('t1', 'new@example.com'), undefined);
    assert.equal(published.length, 1);
  });

  it('an expired link: 410 invitation_expired, expired_invitation_consumption, no account', async () => {
    const link = await invite();
    now += 72 * HOUR;
    await rejectsWith(invitations.accept(link, 'new@example.com', caller), 410, 'invitation_expired');
    assert.equal(await admins.accounts.get('t1', 'new@example.com'), undefined);
    assert.deepEqual(
      published.map((p) => [p.activityType, p.admin.adminEmail]),
      [['expired_invitation_consumption', 'new@example.com']],
    );
    assert.equal((await admins.invitations.list('t1'))[0]?.acceptedAt, undefined);
  });

  it('a link opened by someone signed in with another email: 403, nothing written, no event for anyone', async () => {
    const link = await invite();
    await rejectsWith(
      invitations.accept(link, 'mallory@example.com', caller),
      403,
      'invitation_email_mismatch',
    );
    assert.deepEqual(await admins.accounts.list('t1'), []);
    assert.deepEqual(published, []);
    assert.equal(
      (await admins.invitations.list('t1'))[0]?.acceptedAt,
      undefined,
      'still usable by the invitee',
    );
  });

  it('an unknown link: 404 invitation_not_found', async () => {
    await rejectsWith(
      invitations.accept('no-such-link', 'new@example.com', caller),
      404,
      'invitation_not_found',
    );
  });
});
