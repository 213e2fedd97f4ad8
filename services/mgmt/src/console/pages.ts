import { mailLocales } from '@sesame/branding';
import express, { type RequestHandler } from 'express';
import { z } from 'zod';
import { createApplicationBody } from '../admin/application-schemas';
import { isAllowed } from '../admins/permissions';
import { adminEmail, adminRole, inviteeLocale } from '../admins/schemas';
import { parse } from '../http/validate';
import { changeRole, removeAdministrator } from '../routes/admin/administrators';
import { createApplication } from '../routes/admin/create-application';
import { issuePersonalToken, tokenName } from '../routes/admin/personal-tokens';
import { type ConsoleDeps, type SignedIn, signedInOf } from './context';
import { ConsoleError } from './errors';
import { ct } from './i18n';
import { activityPage } from './page-activity';
import { adminLogsPage } from './page-admin-logs';
import { applicationPage } from './page-application';
import { brandingPage } from './page-branding';
import { brandingPreviews } from './page-branding-preview';
import { credentialsPage } from './page-credentials';
import { allowedRoute, date, pageKit } from './page-kit';
import { settingsPage } from './page-settings';
import { tenantsPage } from './page-tenants';
import { usersPage } from './page-users';
import { CONSOLE_PATH, type ConsoleRenderer, SECTIONS } from './render';

const P = CONSOLE_PATH;
const inviteForm = z.object({ email: adminEmail, role: adminRole, locale: inviteeLocale.optional() });

/**
 * The console's pages. Each reads and writes through the same domain functions and permission table as
 * the admin API, and emits the same admin events, as the signed-in administrator.
 */
export function consolePages(
  deps: ConsoleDeps,
  renderer: ConsoleRenderer,
  recentSignIn: RequestHandler,
): express.Router {
  const pages = express.Router();
  const { show, emit } = pageKit(deps, renderer);

  // Personal API tokens: every role, for oneself.
  const tokensView = async (s: SignedIn) =>
    (await deps.admins.tokens.list(s.tenant.tenantId, s.session.email)).map((t) => ({
      name: t.name,
      revoked: t.revokedAt !== undefined,
      expires: date(t.expiresAt),
      revokeAction: `${P}/tokens/${encodeURIComponent(t.tokenId)}/revoke`,
    }));
  pages.get(
    '/tokens',
    allowedRoute('ownTokens.manage', async (req, res, s) => {
      show(res, 'tokens', 'tokens', 'tokens.title', {
        tokens: await tokensView(s),
        showForm: req.query.new !== undefined,
        action: `${P}/tokens`,
        newHref: `${P}/tokens?new`,
      });
    }),
  );
  pages.post(
    '/tokens',
    recentSignIn,
    allowedRoute('ownTokens.manage', async (req, res, s) => {
      const parsed = tokenName.safeParse(req.body?.name ?? '');
      if (!parsed.success) {
        const why = parsed.error.issues[0]?.message ?? '';
        throw new ConsoleError(400, 'error.invalid', { message: `${ct(s.locale, 'tokens.name')}: ${why}` });
      }
      const name = parsed.data;
      const { token } = await issuePersonalToken(deps, s.tenant.tenantId, s.session.email, name);
      show(
        res,
        'tokens',
        'tokens',
        'tokens.title',
        {
          tokens: await tokensView(s),
          created: { token },
          newHref: `${P}/tokens?new`,
        },
        201,
      );
    }),
  );
  pages.post(
    '/tokens/:tokenId/revoke',
    recentSignIn,
    allowedRoute('ownTokens.manage', async (req, res, s) => {
      const revoked = await deps.admins.tokens.revoke(
        s.tenant.tenantId,
        s.session.email,
        req.params.tokenId!,
        deps.clock.now(),
      );
      if (!revoked) throw new ConsoleError(404, 'error.notFound');
      res.redirect(303, `${P}/tokens`);
    }),
  );

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
    recentSignIn,
    allowedRoute('application.write', async (req, res, s) => {
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
    }),
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
        .filter((i) => i.acceptedAt === undefined && i.expiresAt > now)
        .map((i) => ({ email: i.email, roleKey: `role.${i.role}` })),
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
    allowedRoute('administrators.invite', async (req, res, s) => {
      const { email, role, locale } = parse(
        inviteForm,
        { email: req.body?.email, role: req.body?.role, locale: req.body?.locale },
        'form',
      );
      if (await deps.admins.accounts.get(s.tenant.tenantId, email)) {
        throw new ConsoleError(409, 'error.invalid', { message: email });
      }
      await deps.invitations.invite(s.tenant, email, role, emit(req, res), s.session.email, locale);
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
    }),
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
    recentSignIn,
    allowedRoute('administrators.changeRole', async (req, res, s) => {
      const { role } = parse(z.object({ role: adminRole }), { role: req.body?.role }, 'form');
      await changeRole(deps, s.tenant.tenantId, req.params.email!.toLowerCase(), role, emit(req, res));
      res.redirect(303, `${P}/administrators`);
    }),
  );
  pages.post(
    '/administrators/:email/remove',
    recentSignIn,
    allowedRoute('administrators.remove', async (req, res, s) => {
      await removeAdministrator(deps, s.tenant.tenantId, req.params.email!.toLowerCase(), emit(req, res));
      res.redirect(303, `${P}/administrators`);
    }),
  );

  // Sections other issues build (their links stay in place): an honest "coming soon" page.
  pages.use(
    credentialsPage(deps, renderer, recentSignIn),
    tenantsPage(deps, renderer),
    adminLogsPage(deps, renderer),
    settingsPage(deps, renderer),
    brandingPage(deps, renderer),
    brandingPreviews(deps),
    applicationPage(deps, renderer, recentSignIn),
    usersPage(deps, renderer, recentSignIn),
    activityPage(deps, renderer),
  );

  const built = [
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
