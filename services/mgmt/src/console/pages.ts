import { mailLocales } from '@sesame/branding';
import express from 'express';
import { z } from 'zod';
import { createApplicationBody } from '../admin/application-schemas';
import { invitationStatus } from '../admins/invitations';
import { isAllowed } from '../admins/permissions';
import { adminEmail, adminRole, inviteeLocale } from '../admins/schemas';
import { parse } from '../http/validate';
import { changeRole, removeAdministrator } from '../routes/admin/administrators';
import { createApplication } from '../routes/admin/create-application';
import { type ConsoleDeps, type SignedIn, signedInOf } from './context';
import { ConsoleError } from './errors';
import { ct } from './i18n';
import { activityPage } from './page-activity';
import { adminLogsPage } from './page-admin-logs';
import { applicationPage } from './page-application';
import { brandingPage } from './page-branding';
import { brandingPreviews } from './page-branding-preview';
import { credentialsPage } from './page-credentials';
import { homePage } from './page-home';
import { tooManyMailsPage } from './page-invitation';
import { allowedRoute, date, pageKit } from './page-kit';
import { settingsPage } from './page-settings';
import { tenantsPage } from './page-tenants';
import { tokensPage } from './page-tokens';
import { usersPage } from './page-users';
import { CONSOLE_PATH, type ConsoleRenderer, SECTIONS } from './render';

const P = CONSOLE_PATH;
const inviteForm = z.object({ email: adminEmail, role: adminRole, locale: inviteeLocale.optional() });

/**
 * The console's pages. Each reads and writes through the same domain functions and permission table as
 * the admin API, and emits the same admin events, as the signed-in administrator.
 */
export function consolePages(deps: ConsoleDeps, renderer: ConsoleRenderer): express.Router {
  const pages = express.Router();
  const { show, emit, stepUp } = pageKit(deps, renderer);

  // Applications: Owners and Administrators.
  const appsView = async (s: SignedIn) =>
    (await deps.dir.applications.list(s.tenant.tenantId)).map((a) => ({
      name: a.name,
      clientId: a.clientId,
      href: `${P}/applications/${encodeURIComponent(a.appId)}`,
    }));
  pages.get(
    '/applications',
    allowedRoute('application.read', async (req, res, s) => {
      const canWrite = isAllowed(s.account.role, 'application.write');
      show(res, 'applications', 'applications', 'apps.title', {
        apps: await appsView(s),
        canWrite,
        showForm: canWrite && req.query.new !== undefined,
        action: `${P}/applications`,
        newHref: `${P}/applications?new`,
      });
    }),
  );
  pages.post(
    '/applications',
    allowedRoute(
      'application.write',
      async (req, res, s) => {
        const redirectUris = String(req.body?.redirectUris ?? '')
          .split(/\r?\n/)
          .map((u) => u.trim())
          .filter(Boolean);
        const body = parse(createApplicationBody, { name: req.body?.name, redirectUris });
        const created = await createApplication(deps, s.tenant.tenantId, body, emit(req, res));
        show(
          res,
          'applications',
          'applications',
          'apps.title',
          {
            apps: await appsView(s),
            canWrite: true,
            created: { name: created.name, clientId: created.clientId, clientSecret: created.clientSecret },
            newHref: `${P}/applications?new`,
          },
          201,
        );
      },
      stepUp('application.create'),
    ),
  );

  // Administrators: read by Owners and Administrators, invitations and removal by Owners.
  const adminsView = async (s: SignedIn) => {
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
        })),
      canInvite: isAllowed(s.account.role, 'administrators.invite'),
      inviteAction: `${P}/administrators/invite`,
      // The invitee's language: the console's own by default.
      inviteLocales: mailLocales.map((value) => ({
        value,
        label: `branding.locale.${value}`,
        selected: value === s.locale,
      })),
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
        const { email, role, locale } = parse(
          inviteForm,
          { email: req.body?.email, role: req.body?.role, locale: req.body?.locale },
          'form',
        );
        if (await deps.admins.accounts.get(s.tenant.tenantId, email)) {
          throw new ConsoleError(409, 'error.invalid', { message: email });
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
  pages.get(
    '/administrators/:email/role',
    allowedRoute('administrators.changeRole', async (req, res, s) => {
      const email = req.params.email!.toLowerCase();
      const account = await deps.admins.accounts.get(s.tenant.tenantId, email);
      if (!account) throw new ConsoleError(404, 'error.notFound');
      show(res, 'adminRole', 'administrators', 'admins.changeRole', {
        email,
        action: `${P}/administrators/${encodeURIComponent(email)}/role`,
        back: `${P}/administrators`,
        roles: (['owner', 'administrator', 'support'] as const).map((r) => ({
          value: r,
          key: `role.${r}`,
          selected: r === account.role,
        })),
      });
    }),
  );
  pages.post(
    '/administrators/:email/role',
    allowedRoute(
      'administrators.changeRole',
      async (req, res, s) => {
        const { role } = parse(z.object({ role: adminRole }), { role: req.body?.role }, 'form');
        const email = req.params.email!.toLowerCase();
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
    usersPage(deps, renderer),
    activityPage(deps, renderer),
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
