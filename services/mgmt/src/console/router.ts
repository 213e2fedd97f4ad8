import { HttpError, safeEqual, strictUrlencoded } from '@sesame/platform';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { adminActivity } from '../admin/admin-events';
import { isAllowed } from '../admins/permissions';
import { asyncRoute } from '../http/async-route';
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
import { ConsoleError, consoleErrors, consoleNotFound } from './errors';
import { ct } from './i18n';
import { multipartForm } from './multipart';
import { SignInError, authorizeUrl, newSignInRequest, redeemCode } from './oidc';
import { consolePages } from './pages';
import { CONSOLE_PATH, type ConsoleRenderer, consoleHeaders, createConsoleRenderer } from './render';
import { ConsoleSessions, DEFAULT_SESSION_LIMITS, PendingSignIns, STEP_UP_MS } from './sessions';
import { CONSOLE_CSS, CONSOLE_CSS_NAME } from './style';

/** Only console paths are followed after sign-in (never an open redirect). */
const safeReturn = (value: unknown) =>
  typeof value === 'string' && /^\/console\/[\w\-./%]*$/.test(value) && !value.includes('//')
    ? value
    : `${CONSOLE_PATH}/`;

export const signInPath = (returnTo: string, stepUp = false) =>
  `${CONSOLE_PATH}/signin?${new URLSearchParams({ return: returnTo, ...(stepUp ? { prompt: 'login' } : {}) })}`;

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
  const pending = new PendingSignIns(deps.kv);
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

  c.get(
    '/signin',
    asyncRoute(async (req, res) => {
      await deps.ensureSystemTenant();
      const request = newSignInRequest();
      const state = await pending.start({ ...request, returnTo: safeReturn(req.query.return) });
      res
        .set('Cache-Control', 'no-store')
        .redirect(302, authorizeUrl(deps.client, state, request, req.query.prompt === 'login'));
    }),
  );

  c.get(
    '/callback',
    asyncRoute(async (req, res) => {
      const state = typeof req.query.state === 'string' ? req.query.state : '';
      const code = typeof req.query.code === 'string' ? req.query.code : '';
      const started = state ? await pending.take(state) : undefined;
      if (!started || !code) throw new ConsoleError(400, 'error.signin');
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
      const { cookie, session } = await sessions.create(identity.email, tenantId, identity.authTime);
      setSessionCookie(res, deps, cookie, limits.absoluteMs);
      if (tenantId && previous?.email !== identity.email) {
        await deps.admins.accounts.touch(tenantId, identity.email, deps.clock.now());
        await emitAs(deps, req, session)(tenantId, adminActivity.enterTenant, { isTenantSwitch: false });
      }
      res.set('Cache-Control', 'no-store').redirect(303, started.returnTo);
    }),
  );

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
      const locale = localeOf(req);
      res
        .status(200)
        .set(consoleHeaders)
        .send(
          renderer.render('signedOut', locale, {
            title: ct(locale, 'signedOut.title'),
            signIn: signInPath(`${CONSOLE_PATH}/`),
          }),
        );
    }),
  );

  c.get(
    '/invitations/:token',
    asyncRoute(async (req, res) => {
      const cookie = cookieOf(req);
      const session = await sessions.get(cookie);
      if (!session) {
        res.redirect(303, signInPath(`${CONSOLE_PATH}/invitations/${encodeURIComponent(req.params.token!)}`));
        return;
      }
      const account = await deps.invitations
        .accept(req.params.token!, session.email, { clientIp: req.ip ?? '', sessionId: session.sessionId })
        .catch((err: unknown) => {
          if (!(err instanceof HttpError)) throw err;
          const key = {
            410: err.message.includes('expired') ? 'invite.expired' : 'invite.used',
            403: 'invite.mismatch',
            404: 'invite.unknown',
          }[err.status as 410 | 403 | 404];
          throw key ? new ConsoleError(err.status, key) : err;
        });
      await sessions.update(cookie!, { ...session, tenantId: account.tenantId });
      await emitAs(deps, req, session)(account.tenantId, adminActivity.enterTenant, {
        isTenantSwitch: Boolean(session.tenantId),
      });
      res.redirect(303, `${CONSOLE_PATH}/`);
    }),
  );

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

  /** Sensitive actions (a new secret, revoking, removing an administrator) need a sign-in < 10 minutes old. */
  const recentSignIn = (req: Request, res: Response, next: NextFunction) => {
    const { session } = signedInOf(res);
    if (deps.clock.now() - session.signedInAt > STEP_UP_MS) {
      const back = req.originalUrl.replace(/\/[^/]+\/(revoke|remove|role|secret)$/, '') || `${CONSOLE_PATH}/`;
      return next(new ConsoleError(403, 'error.stepUp', {}, signInPath(safeReturn(back), true)));
    }
    next();
  };

  // A broken percent-encoding is a 400 page, never stored as mangled text.
  c.use(signedIn, strictUrlencoded('16kb'));
  // The Branding form carries the logo file: multipart, read before the CSRF check reads its token.
  c.post('/branding', ...multipartForm('256kb'));
  c.post('*', csrf);
  // The first page the role may see: Applications, or for Support the Admin logs.
  c.get('/', (_req, res) => {
    const { account } = signedInOf(res);
    res.redirect(
      303,
      `${CONSOLE_PATH}/${isAllowed(account.role, 'application.read') ? 'applications' : 'admin-logs'}`,
    );
  });
  c.use(consolePages(deps, renderer, recentSignIn));
  c.use(consoleNotFound, consoleErrors(renderer));
  return router;
}
