import { type HttpError, MgmtError, safeEqual, sha256 } from '@sesame/platform';
import express, { type Request, type Router } from 'express';
import { INVITATION_MAILS_PER_ADDRESS_PER_DAY } from '../admins/invitation-mail-limit';
import type { Invitation } from '../admins/model';
import { adminEmail } from '../admins/schemas';
import { BOOTSTRAP_ADMIN, adminActivity } from '../events/admin-events';
import { asyncRoute } from '../http/async-route';
import { ct } from '../i18n';
import { type ConsoleDeps, emitAs, localeOf } from './context';
import { ConsoleError } from './errors';
import { date } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer, consoleHeaders } from './render';
import type { ConsoleSession, ConsoleSessions } from './sessions';

/** `login_hint` of /console/signin: one email address, else none. */
export const loginHintOf = (value: unknown): string | undefined => {
  const parsed = adminEmail.safeParse(value);
  return parsed.success ? parsed.data : undefined;
};

/** The `?welcome` of a new administrator's first page, kept across the console root's redirect. */
export const welcomeQuery = (req: Request) => (req.query.welcome !== undefined ? '?welcome' : '');

/** The refusals of Invitations.inspect/accept, as the invitation page's catalog messages. */
const REFUSALS: Record<string, string> = {
  invitation_used: 'invite.used',
  invitation_expired: 'invite.expired',
  invitation_cancelled: 'invite.cancelled',
  invitation_email_mismatch: 'invite.mismatch',
  invitation_not_found: 'invite.unknown',
};
const asPage = (err: unknown): never => {
  const key = err instanceof MgmtError ? REFUSALS[err.code] : undefined;
  throw key ? new ConsoleError((err as HttpError).status, key) : err;
};

/** The invitation mail limit (429) as the Administrators page's error page naming it. */
export const tooManyMailsPage = (err: unknown): never => {
  if (err instanceof MgmtError && err.status === 429) {
    const retryS = Number(err.headers['Retry-After'] ?? 86_400);
    const hours = Math.max(1, Math.ceil(retryS / 3600));
    throw new ConsoleError(429, 'admins.tooManyMails', {
      limit: INVITATION_MAILS_PER_ADDRESS_PER_DAY,
      hours,
    });
  }
  throw err;
};

/**
 * The invitation link `{admin_url}/console/invitations/<token>`: signed out, off to sign in first; signed in
 * with the invited email, a page that says who invited, to which tenant, with which role and until when, and
 * an Accept button (a POST carrying the session's CSRF token: opening a link never changes anything).
 * Every refusal (used, expired, cancelled, another email, unknown) is its console page; nothing is written.
 */
export function invitationPage(
  deps: ConsoleDeps,
  renderer: ConsoleRenderer,
  sessions: ConsoleSessions,
  cookieOf: (req: Request) => string | undefined,
  signInPath: (returnTo: string) => string,
): Router {
  const r = express.Router();
  const here = (req: Request) => `${CONSOLE_PATH}/invitations/${encodeURIComponent(req.params.token!)}`;
  const callerOf = (req: Request, session: ConsoleSession) => ({
    clientIp: req.ip ?? '',
    sessionId: session.sessionId,
  });

  r.get(
    '/invitations/:token',
    asyncRoute(async (req, res) => {
      const session = await sessions.get(cookieOf(req));
      if (!session) {
        // The sign-in page starts with the invited address (the link is the secret: it may name its invitee).
        const invited = await deps.admins.invitations.findByTokenHash(sha256(req.params.token!));
        const hint = invited ? `&${new URLSearchParams({ login_hint: invited.email })}` : '';
        res.redirect(303, `${signInPath(here(req))}${hint}`);
        return;
      }
      const invitation = await deps.invitations
        .inspect(req.params.token!, session.email, callerOf(req, session))
        .catch(asPage);
      const locale = localeOf(req);
      const tenant = await deps.dir.tenants.get(invitation.tenantId);
      res
        .status(200)
        .set(consoleHeaders)
        .send(
          renderer.render('invitation', locale, {
            title: ct(locale, 'invitation.title', { tenant: tenant?.name ?? '' }),
            ...invitationView(invitation, locale),
            tenantName: tenant?.name ?? '',
            action: here(req),
            csrf: session.csrf,
          }),
        );
    }),
  );

  r.post(
    '/invitations/:token',
    express.urlencoded({ extended: false, limit: '4kb' }),
    asyncRoute(async (req, res) => {
      const cookie = cookieOf(req);
      const session = await sessions.get(cookie);
      if (!session) throw new ConsoleError(401, 'error.signin', {}, signInPath(here(req)));
      if (!safeEqual(String(req.body?.csrf ?? ''), session.csrf)) throw new ConsoleError(403, 'error.csrf');
      const account = await deps.invitations
        .accept(req.params.token!, session.email, callerOf(req, session))
        .catch(asPage);
      await sessions.update(cookie!, { ...session, tenantId: account.tenantId });
      await emitAs(deps, req, session)(account.tenantId, adminActivity.enterTenant, {
        isTenantSwitch: Boolean(session.tenantId),
      });
      await deps.admins.accounts.touch(account.tenantId, account.email, deps.clock.now());
      // Welcomed on their role's first page: Support on Users, the others on the tenant's first page.
      res.redirect(303, `${CONSOLE_PATH}/${account.role === 'support' ? 'users' : ''}?welcome`);
    }),
  );
  return r;
}

function invitationView(i: Invitation, locale: Parameters<typeof ct>[0]) {
  const expires = new Date(i.expiresAt).toISOString().slice(0, 16).replace('T', ' ');
  return {
    email: i.email,
    roleKey: `role.${i.role}`,
    invitedBy: i.invitedBy === BOOTSTRAP_ADMIN ? ct(locale, 'invitation.byBootstrap') : i.invitedBy,
    expires: `${expires} UTC`,
  };
}
