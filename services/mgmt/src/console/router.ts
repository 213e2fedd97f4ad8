import { HttpError, safeEqual, strictUrlencoded } from '@sesame/platform';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { isAllowed } from '../admins/permissions';
import { adminActivity } from '../events/admin-events';
import { asyncRoute } from '../http/async-route';
import { ct } from '../i18n';
import {
  type ConsoleDeps,
  clearSessionCookie,
  cookieName,
  emitAs,
  localeOf,
  readCookie,
  setSessionCookie,
  signedInOf,
} from './context';
import { serveCopyScript } from './copy-script';
import { dangerConfirmation } from './danger-zone';
import { ConsoleError, consoleErrors, consoleNotFound } from './errors';
import { multipartForm } from './multipart';
import { SignInError, authorizeUrl, logoutUrl, newSignInRequest, redeemCode } from './oidc';
import { invitationPage, loginHintOf, welcomeQuery } from './page-invitation';
import { safeReturn, signInPath } from './page-kit';
import { consolePages } from './pages';
import {
  CONSOLE_PATH,
  type ConsoleRenderer,
  consoleHeaders,
  createConsoleRenderer,
  landingOf,
} from './render';
import { ConsoleSessions, DEFAULT_SESSION_LIMITS } from './sessions';
import { SignInCookie } from './signin-cookie';
import { CONSOLE_CSS, CONSOLE_CSS_NAME } from './style';

/**
 * The Sesame Console at {admin_url}/console/: sign-in through Sesame's own OIDC flow (the console is a
 * confidential client of the system tenant), console sessions, and the pages. Every error is a console page.
 */
export function consoleRouter(
  deps: ConsoleDeps,
  renderer: ConsoleRenderer = createConsoleRenderer(),
): express.Router {
  const limits = deps.sessionLimits ?? DEFAULT_SESSION_LIMITS;
  const sessions = new ConsoleSessions(deps.kv, deps.clock, limits);
  const pending = new SignInCookie(deps.client.clientSecret, deps.secureCookie, () => deps.clock.now());
  const cookieOf = (req: Request) => readCookie(req, cookieName(deps.secureCookie));
  const router = express.Router();
  const c = express.Router();
  router.use(CONSOLE_PATH, c);

  c.get(`/assets/${CONSOLE_CSS_NAME}`, (_req, res) => {
    res.set({
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
    res.send(CONSOLE_CSS);
  });
  serveCopyScript(c);

  // Stores nothing on the server: the sign-in in progress lives in this browser's sealed cookie.
  c.get(
    '/signin',
    asyncRoute(async (req, res) => {
      await deps.ensureSystemTenant();
      const request = newSignInRequest();
      const { state } = pending.start(req, res, request, safeReturn(req.query.return));
      res
        .set('Cache-Control', 'no-store')
        .redirect(
          302,
          authorizeUrl(
            deps.client,
            state,
            request,
            req.query.prompt === 'login',
            loginHintOf(req.query.login_hint),
          ),
        );
    }),
  );

  c.get(
    '/callback',
    asyncRoute(async (req, res) => {
      const state = typeof req.query.state === 'string' ? req.query.state : '';
      const code = typeof req.query.code === 'string' ? req.query.code : '';
      // Only a state this browser's cookie holds: a callback URL made in another browser (login CSRF) or
      // an expired one is refused here, before the code is redeemed or any session changes.
      const started = pending.take(req, res, state);
      if (!started) throw new ConsoleError(400, 'error.signinState');
      if (!code) throw new ConsoleError(400, 'error.signin');
      const identity = await redeemCode(deps.client, code, started, deps.clock.now(), deps.fetch).catch(
        (err) => {
          if (err instanceof SignInError) {
            req.log?.warn({ reason: err.message }, 'console sign-in refused');
            throw new ConsoleError(400, 'error.signin');
          }
          throw err;
        },
      );
      const previous = await sessions.get(cookieOf(req));
      const accounts = await deps.admins.accounts.listByEmail(identity.email);
      const tenantId =
        (previous?.email === identity.email && accounts.some((a) => a.tenantId === previous.tenantId)
          ? previous.tenantId
          : accounts[0]?.tenantId) ?? '';
      // A new cookie at every sign-in (rotation): the old one, if any, stops working now.
      await sessions.end(cookieOf(req));
      // signedInAt is when the person authenticated (auth_time): a sign-in answered from Sesame's own
      // browser session does not count as a fresh one for step-up.
      const { cookie, session } = await sessions.create(
        identity.email,
        tenantId,
        identity.authTime,
        identity.idToken,
      );
      setSessionCookie(res, deps, cookie, limits.absoluteMs);
      // Last sign-in is every sign-in (a step-up too); entering the tenant only a new administrator's.
      if (tenantId) await deps.admins.accounts.touch(tenantId, identity.email, deps.clock.now());
      if (tenantId && previous?.email !== identity.email) {
        await emitAs(deps, req, session)(tenantId, adminActivity.enterTenant, { isTenantSwitch: false });
      }
      res.set('Cache-Control', 'no-store').redirect(303, started.returnTo);
    }),
  );

  /**
   * Sign out ends the console session and then the Sesame session it signed in with: RP-Initiated Logout at
   * auth_url/logout with the session's ID token as id_token_hint, back to /console/signed-out. Otherwise the
   * next person at this browser would be signed straight back in by Sesame's own session.
   */
  c.post(
    '/signout',
    strictUrlencoded('4kb'),
    asyncRoute(async (req, res) => {
      const cookie = cookieOf(req);
      const session = await sessions.get(cookie);
      if (session) {
        if (!safeEqual(String(req.body?.csrf ?? ''), session.csrf)) throw new ConsoleError(403, 'error.csrf');
        await sessions.end(cookie);
        if (session.tenantId) {
          await emitAs(deps, req, session)(session.tenantId, adminActivity.leaveTenant, {
            isTenantSwitch: false,
          });
        }
      }
      clearSessionCookie(res, deps);
      // Without a console session (ended meanwhile) there is no hint: auth asks before ending its session.
      res.set('Cache-Control', 'no-store').redirect(303, logoutUrl(deps.client, session?.idToken));
    }),
  );

  c.get('/signed-out', (req, res) => {
    const locale = localeOf(req);
    res
      .status(200)
      .set(consoleHeaders)
      .set('Cache-Control', 'no-store')
      .send(
        renderer.render('signedOut', locale, {
          title: ct(locale, 'signedOut.title'),
          signIn: signInPath(`${CONSOLE_PATH}/`),
        }),
      );
  });

  c.use(invitationPage(deps, renderer, sessions, cookieOf, signInPath));

  /** Every page below: a live session whose administrator still has an account in its tenant. */
  const signedIn: RequestHandler = (req, res, next) => {
    (async () => {
      const cookie = cookieOf(req);
      const { live: session, ended } = await sessions.look(cookie);
      if (ended?.tenantId) {
        // The session ended by its idle timeout or absolute lifetime: the administrator left the tenant.
        await emitAs(deps, req, ended)(ended.tenantId, adminActivity.leaveTenant, { isTenantSwitch: false });
      }
      if (!session) {
        if (req.method === 'GET') return res.redirect(303, signInPath(req.originalUrl));
        throw new ConsoleError(401, 'error.signin', {}, signInPath(`${CONSOLE_PATH}/`));
      }
      const account = session.tenantId
        ? await deps.admins.accounts.get(session.tenantId, session.email)
        : undefined;
      const tenant = account && (await deps.dir.tenants.get(account.tenantId));
      if (!account || !tenant) {
        // Removed from this tenant (or never an administrator): the session ends at once.
        await sessions.end(cookie);
        clearSessionCookie(res, deps);
        throw new ConsoleError(403, 'error.notAdmin', { email: session.email });
      }
      const tenants = [];
      for (const a of await deps.admins.accounts.listByEmail(session.email)) {
        const t = a.tenantId === tenant.tenantId ? tenant : await deps.dir.tenants.get(a.tenantId);
        if (t) tenants.push({ tenantId: t.tenantId, name: t.name });
      }
      res.locals.console = { cookie: cookie!, session, account, tenant, tenants, locale: localeOf(req) };
      next();
    })().catch(next);
  };

  /** A POST must carry its session's CSRF token: a missing or foreign one is refused before anything else. */
  const csrf = (req: Request, res: Response, next: NextFunction) => {
    const { session } = signedInOf(res);
    if (!safeEqual(String(req.body?.csrf ?? ''), session.csrf))
      return next(new ConsoleError(403, 'error.csrf'));
    next();
  };

  // A broken percent-encoding is a 400 page, never stored as mangled text.
  c.use(signedIn, strictUrlencoded('16kb'));
  // The Branding form carries the logo file: multipart, read before the CSRF check reads its token.
  c.post('/branding', ...multipartForm('256kb'));
  c.post('*', csrf);
  // A destructive action without its confirmation changes nothing: its confirmation step answers instead.
  c.post('*', dangerConfirmation(deps, renderer));
  // The role's first page: Home for Owners and Administrators, Users for Support; ?welcome (a new
  // administrator, from their invitation) rides along to it.
  c.get('/', (req, res) => {
    res.redirect(303, `${landingOf(signedInOf(res).account.role)}${welcomeQuery(req)}`);
  });
  c.use(consolePages(deps, renderer));
  c.use(consoleNotFound, consoleErrors(renderer));
  return router;
}
