import assert from 'node:assert/strict';
import { beforeEach, describe, it } from '@jest/globals';
import { DEFAULT_TEMPLATES } from '@sesame/branding';
import { MemoryKeyValueStore } from '@sesame/kv';
import { MgmtError } from '@sesame/platform';
import { invitationMailLimiter } from '../../admins/invitation-mail-limit';
import { memoryAdmins } from '../../admins/memory';
import type { AdminsRepositories } from '../../admins/repository';
import { memoryBranding } from '../../branding/memory';
import type { AdminContext, AdminEventPublisher } from '../../events/admin-events';
import { Invitations } from './invitations';

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

  beforeEach(async () => {
    now = 1_000_000;
    admins = memoryAdmins();
    // The inviter: an invitation is only good while whoever made it is still an Owner of the tenant.
    await admins.accounts.create({ tenantId: 't1', email: 'owner@example.com', role: 'owner', createdAt: 1 });
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
      mailLimits: invitationMailLimiter(new MemoryKeyValueStore(() => now), () => now),
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
    assert.deepEqual(
      (await admins.accounts.list('t1')).map((a) => a.email),
      ['owner@example.com'],
    );
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

  it('a new invitation to the same address replaces the older open one: its link is 410 invitation_cancelled', async () => {
    const first = await invitations.invite(tenant, 'x@example.com', 'support', emit, 'owner@example.com');
    const oldLink = /\/console\/invitations\/([\w-]+)/.exec(mail.at(-1)!.text)![1]!;
    await invitations.invite(tenant, 'X@example.com'.toLowerCase(), 'owner', emit, 'owner@example.com');
    const newLink = /\/console\/invitations\/([\w-]+)/.exec(mail.at(-1)!.text)![1]!;
    const old = await admins.invitations.get('t1', first.invitationId);
    assert.deepEqual(
      [old?.cancelledAt, old?.cancelledBy, old?.cancelReason],
      [now, 'owner@example.com', 'replaced'],
    );
    await rejectsWith(invitations.accept(oldLink, 'x@example.com', caller), 410, 'invitation_cancelled');
    assert.equal(await admins.accounts.get('t1', 'x@example.com'), undefined);
    assert.equal((await invitations.accept(newLink, 'x@example.com', caller)).role, 'owner');
  });

  it('a cancelled invitation: 410 invitation_cancelled, nothing written, no event', async () => {
    const link = await invite();
    const [stored] = await admins.invitations.list('t1');
    const cancelled = await invitations.cancel('t1', stored!.invitationId, emit, 'owner@example.com');
    assert.equal(cancelled.cancelReason, 'cancelled');
    assert.equal(emitted.at(-1), 'administrator_cancel_invitation');
    await rejectsWith(invitations.accept(link, 'new@example.com', caller), 410, 'invitation_cancelled');
    assert.equal(await admins.accounts.get('t1', 'new@example.com'), undefined);
    assert.deepEqual(published, []);
  });

  it('cancel: another tenant’s or an unknown invitation is 404; an accepted or cancelled one 409, unchanged', async () => {
    const link = await invite();
    const [stored] = await admins.invitations.list('t1');
    await rejectsWith(
      invitations.cancel('t2', stored!.invitationId, emit, 'o@example.com'),
      404,
      'invitation_not_found',
    );
    await rejectsWith(invitations.cancel('t1', 'nope', emit, 'o@example.com'), 404, 'invitation_not_found');
    await invitations.accept(link, 'new@example.com', caller);
    await rejectsWith(
      invitations.cancel('t1', stored!.invitationId, emit, 'o@example.com'),
      409,
      'invitation_used',
    );
    assert.equal((await admins.invitations.get('t1', stored!.invitationId))?.cancelledAt, undefined);
    const other = await invitations.invite(tenant, 'y@example.com', 'support', emit, 'owner@example.com');
    await invitations.cancel('t1', other.invitationId, emit, 'owner@example.com');
    await rejectsWith(
      invitations.cancel('t1', other.invitationId, emit, 'o@example.com'),
      409,
      'invitation_cancelled',
    );
  });

  it('an invitation whose inviter is no longer an Owner of the tenant cannot be accepted (410 invitation_cancelled)', async () => {
    const link = await invite();
    await admins.accounts.setRole('t1', 'owner@example.com', 'administrator');
    await rejectsWith(invitations.accept(link, 'new@example.com', caller), 410, 'invitation_cancelled');
    assert.equal(await admins.accounts.get('t1', 'new@example.com'), undefined);
  });

  it('at most 10 invitation mails per address per day: the 11th is 429 naming the limit, nothing stored or mailed', async () => {
    for (let i = 0; i < 10; i++) await invite('busy@example.com');
    const stored = (await admins.invitations.list('t1')).length;
    const sent = mail.length;
    await assert.rejects(invite('BUSY@example.com'.toLowerCase()), (err: unknown) => {
      assert.ok(err instanceof MgmtError);
      assert.equal(err.status, 429);
      assert.equal(err.code, 'too_many_requests');
      assert.match(err.message, /at most 10 invitation mails per address per day/);
      assert.equal(err.headers['Retry-After'], String(24 * 3600));
      return true;
    });
    assert.equal((await admins.invitations.list('t1')).length, stored);
    assert.equal(mail.length, sent);
    await invite('other@example.com');
    now += 24 * HOUR;
    await invite('busy@example.com');
    assert.equal(mail.at(-1)!.to, 'busy@example.com');
  });

  it('a mail that cannot be sent leaves no live link: nothing is stored, the older open invitation stays, and the error passes on', async () => {
    const failing = new Invitations({
      admins,
      events: { publish: async () => ({}) as never } as unknown as AdminEventPublisher,
      clock: { now: () => now },
      mailer: {
        send: async () => {
          throw new MgmtError(503, 'temporarily_unavailable', 'mail is down');
        },
      },
      consoleUrl: 'https://admin.example/console',
      ttlMs: 72 * HOUR,
    });
    const before = await admins.invitations.list('t1');
    await invitations.invite(tenant, 'x@example.com', 'support', emit, 'owner@example.com');
    const events = emitted.length;
    await rejectsWith(
      failing.invite(tenant, 'x@example.com', 'administrator', emit, 'owner@example.com'),
      503,
      'temporarily_unavailable',
    );
    const after = await admins.invitations.list('t1');
    assert.equal(after.length, before.length + 1, 'only the first invitation is stored, not the failed one');
    assert.equal(
      after.find((i) => i.email === 'x@example.com')?.cancelledAt,
      undefined,
      'the older one stays open',
    );
    assert.equal(emitted.length, events, 'no invitation or cancellation event');
  });
});
