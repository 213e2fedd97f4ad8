import { mailLocales } from '@sesame/branding';
import express from 'express';
import { z } from 'zod';
import { isAllowed } from '../admins/permissions';
import { adminEmail, adminRole, inviteeLocale } from '../admins/schemas';
import { parse } from '../http/validate';
import { ct } from '../i18n';
import { changeRole, removeAdministrator } from '../use-cases/administrators/administrators';
import { invitationStatus } from '../use-cases/administrators/invitations';
import { createApplicationBody } from '../use-cases/applications/application-schemas';
import { createApplication } from '../use-cases/applications/create-application';
import { type ConsoleDeps, type SignedIn, signedInOf } from './context';
import { ConsoleError } from './errors';
import { type FormSpec, type Problem, formErrors, zodProblems } from './form-problems';
import { activityPage } from './page-activity';
import { adminLogsPage } from './page-admin-logs';
import { applicationPage } from './page-application';
import { applicationBrandingPage } from './page-application-branding';
import { applicationsPage } from './page-applications';
import { attemptsPage } from './page-attempts';
import { brandingPage } from './page-branding';
import { brandingPreviews } from './page-branding-preview';
import { credentialsPage } from './page-credentials';
import { homePage } from './page-home';
import { tooManyMailsPage } from './page-invitation';
import { allowedRoute, date, pageKit } from './page-kit';
import { peoplePage } from './page-people';
import { settingsPage } from './page-settings';
import { tenantsPage } from './page-tenants';
import { tokensPage } from './page-tokens';
import { usersPage } from './page-users';
import { personAccessActions } from './person-access';
import { CONSOLE_PATH, type ConsoleRenderer, SECTIONS } from './render';

const P = CONSOLE_PATH;
const inviteForm = z.object({ email: adminEmail, role: adminRole, locale: inviteeLocale.optional() });
const INVITE_FORM: FormSpec = {
  email: { id: 'invite-email', label: 'admins.email' },
  role: { id: 'invite-role', label: 'admins.role' },
  locale: { id: 'invite-locale', label: 'admins.mailLanguage' },
};
const ROLE_FORM: FormSpec = { role: { id: 'admin-role', label: 'admins.role' } };

/**
 * The console's pages. Each reads and writes through the same domain functions and permission table as
 * the admin API, and emits the same admin events, as the signed-in administrator.
 */
export function consolePages(deps: ConsoleDeps, renderer: ConsoleRenderer): express.Router {
  const pages = express.Router();
  const { show, emit, stepUp } = pageKit(deps, renderer);

  // Applications: Owners and Administrators (page-applications.ts, page-application.ts).
  pages.use(applicationsPage(deps, renderer), applicationBrandingPage(deps, renderer));

  // Administrators: read by Owners and Administrators, invitations and removal by Owners.
  const adminsView = async (s: SignedIn, typed: Record<string, string> = {}, problems: Problem[] = []) => {
    const now = deps.clock.now();
    return {
      admins: (await deps.admins.accounts.list(s.tenant.tenantId)).map((a) => ({
        email: a.email,
        roleKey: `role.${a.role}`,
        lastSignIn: a.lastSignInAt
          ? new Date(a.lastSignInAt).toISOString().slice(0, 16).replace('T', ' ')
          : '',
        removeAction: `${P}/administrators/${encodeURIComponent(a.email)}/remove`,
        roleHref: `${P}/administrators/${encodeURIComponent(a.email)}/role`,
      })),
      invitations: (await deps.admins.invitations.list(s.tenant.tenantId))
        .filter((i) => invitationStatus(i, now) === 'pending')
        .map((i) => ({
          email: i.email,
          roleKey: `role.${i.role}`,
          invitedBy: i.invitedBy,
          expires: `${new Date(i.expiresAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
          cancelAction: `${P}/administrators/invitations/${encodeURIComponent(i.invitationId)}/cancel`,
          resendAction: `${P}/administrators/invitations/${encodeURIComponent(i.invitationId)}/resend`,
        })),
      canInvite: isAllowed(s.account.role, 'administrators.invite'),
      inviteAction: `${P}/administrators/invite`,
      // The invitee's language: the console's own by default.
      inviteEmail: typed.email ?? '',
      inviteRoles: (['owner', 'administrator', 'support'] as const).map((r) => ({
        value: r,
        key: `role.${r}`,
        selected: r === (typed.role ?? 'administrator'),
      })),
      inviteLocales: mailLocales.map((value) => ({
        value,
        label: `branding.locale.${value}`,
        selected: value === (typed.locale ?? s.locale),
      })),
      ...formErrors(s.locale, INVITE_FORM, problems),
    };
  };
  pages.get(
    '/administrators',
    allowedRoute('administrators.read', async (_req, res, s) => {
      show(res, 'administrators', 'administrators', 'admins.title', await adminsView(s));
    }),
  );
  pages.post(
    '/administrators/invite',
    allowedRoute(
      'administrators.invite',
      async (req, res, s) => {
        const typed = {
          email: String(req.body?.email ?? ''),
          role: String(req.body?.role ?? ''),
          locale: String(req.body?.locale ?? ''),
        };
        const again = async (problems: Problem[]) =>
          show(
            res,
            'administrators',
            'administrators',
            'admins.title',
            await adminsView(s, typed, problems),
            400,
          );
        const parsed = inviteForm.safeParse({ ...typed, locale: typed.locale || undefined });
        if (!parsed.success) return again(zodProblems(parsed.error));
        const { email, role, locale } = parsed.data;
        if (await deps.admins.accounts.get(s.tenant.tenantId, email)) {
          return again([{ field: 'email', message: ct(s.locale, 'forms.alreadyAdmin', { email }) }]);
        }
        await deps.invitations
          .invite(s.tenant, email, role, emit(req, res), s.session.email, locale)
          .catch(tooManyMailsPage);
        show(
          res,
          'administrators',
          'administrators',
          'admins.title',
          {
            ...(await adminsView(s)),
            notice: ct(s.locale, 'admins.invited', { email }),
          },
          201,
        );
      },
      stepUp('administrators.invite'),
    ),
  );
  const roleView = (email: string, current: string) => ({
    email,
    action: `${P}/administrators/${encodeURIComponent(email)}/role`,
    back: `${P}/administrators`,
    roles: (['owner', 'administrator', 'support'] as const).map((r) => ({
      value: r,
      key: `role.${r}`,
      selected: r === current,
    })),
  });
  pages.get(
    '/administrators/:email/role',
    allowedRoute('administrators.changeRole', async (req, res, s) => {
      const email = req.params.email!.toLowerCase();
      const account = await deps.admins.accounts.get(s.tenant.tenantId, email);
      if (!account) throw new ConsoleError(404, 'error.notFound');
      show(res, 'adminRole', 'administrators', 'admins.changeRole', roleView(email, account.role));
    }),
  );
  pages.post(
    '/administrators/:email/role',
    allowedRoute(
      'administrators.changeRole',
      async (req, res, s) => {
        const email = req.params.email!.toLowerCase();
        const parsed = z.object({ role: adminRole }).safeParse({ role: req.body?.role });
        if (!parsed.success) {
          const account = await deps.admins.accounts.get(s.tenant.tenantId, email);
          if (!account) throw new ConsoleError(404, 'error.notFound');
          const errors = formErrors(s.locale, ROLE_FORM, zodProblems(parsed.error));
          show(
            res,
            'adminRole',
            'administrators',
            'admins.changeRole',
            { ...roleView(email, account.role), ...errors },
            400,
          );
          return;
        }
        const { role } = parsed.data;
        await changeRole(deps, s.tenant.tenantId, email, role, emit(req, res), s.session.email);
        res.redirect(303, `${P}/administrators`);
      },
      stepUp('administrators.changeRole'),
    ),
  );
  pages.post(
    '/administrators/:email/remove',
    allowedRoute(
      'administrators.remove',
      async (req, res, s) => {
        const email = req.params.email!.toLowerCase();
        await removeAdministrator(deps, s.tenant.tenantId, email, emit(req, res), s.session.email);
        res.redirect(303, `${P}/administrators`);
      },
      stepUp('administrators.remove'),
    ),
  );
  pages.post(
    '/administrators/invitations/:invitationId/cancel',
    allowedRoute('administrators.invite', async (req, res, s) => {
      const { invitationId } = req.params;
      const cancelled = await deps.invitations.cancel(
        s.tenant.tenantId,
        invitationId!,
        emit(req, res),
        s.session.email,
      );
      const notice = ct(s.locale, 'admins.cancelled', { email: cancelled.email });
      show(res, 'administrators', 'administrators', 'admins.title', { ...(await adminsView(s)), notice });
    }),
  );

  // Resend: a new invitation to the same address and role (a new link and expiry; the old link is replaced).
  pages.post(
    '/administrators/invitations/:invitationId/resend',
    allowedRoute(
      'administrators.invite',
      async (req, res, s) => {
        const found = await deps.admins.invitations.get(s.tenant.tenantId, req.params.invitationId!);
        if (!found || invitationStatus(found, deps.clock.now()) !== 'pending') {
          throw new ConsoleError(404, 'error.notFound');
        }
        const locale = mailLocales.find((l) => l === s.locale) ?? 'en';
        await deps.invitations
          .invite(s.tenant, found.email, found.role, emit(req, res), s.session.email, locale)
          .catch(tooManyMailsPage);
        const notice = ct(s.locale, 'admins.resent', { email: found.email });
        show(res, 'administrators', 'administrators', 'admins.title', { ...(await adminsView(s)), notice });
      },
      stepUp('administrators.invite'),
    ),
  );

  // Sections other issues build (their links stay in place): an honest "coming soon" page.
  pages.use(
    homePage(deps, renderer),
    tokensPage(deps, renderer),
    credentialsPage(deps, renderer),
    tenantsPage(deps, renderer),
    adminLogsPage(deps, renderer),
    settingsPage(deps, renderer),
    brandingPage(deps, renderer),
    brandingPreviews(deps),
    applicationPage(deps, renderer),
    peoplePage(deps, renderer),
    usersPage(deps, renderer),
    personAccessActions(deps, renderer),
    activityPage(deps, renderer),
    attemptsPage(deps, renderer),
  );

  const built = [
    'home',
    'applications',
    'administrators',
    'tokens',
    'credentials',
    'admin-logs',
    'settings',
    'branding',
    'users',
    'activity',
  ];
  for (const section of SECTIONS.filter((x) => !built.includes(x.path))) {
    pages.get(`/${section.path}`, (_req, res) => {
      const s = signedInOf(res);
      show(res, 'soon', section.path, section.label, { title: ct(s.locale, section.label) });
    });
  }
  return pages;
}
