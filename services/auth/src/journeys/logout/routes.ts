// Over 300 lines on purpose: the logout endpoint (RP-initiated, front and back channel) keeps its routes and their shared checks in one place; the page views already live in pages/.
import { randomBytes } from 'node:crypto';
import type { KeyValueStore } from '@sesame/kv';
import { strictUrlencoded } from '@sesame/platform';
import type { directory } from '@sesame/proto';
import type { Request, Response, Router } from 'express';
import type { Brands } from '../../branding/brands';
import { withBrandOf } from '../../branding/with-brand';
import { type Locale, negotiateLocale } from '../../i18n';
import type { PageRenderer } from '../../pages';
import type { BrowserSession, SessionManager, SignedIn } from '../../session/browser-session';
import { sendErrorPage, sendPage } from '../../web/respond';
import { type BackchannelDeps, notifyBackchannel } from './end-session';
import { type IdTokenHint, checkIdTokenHint } from './id-token-hint';
import { LogoutError, type LogoutParams, postLogoutLocation, readLogoutParams } from './logout-request';

export const LOGOUT_PATH = '/logout';
const CONFIRM_PATH = `${LOGOUT_PATH}/confirm`;
/** How long a confirmation page may wait for its answer. */
const PENDING_TTL_MS = 10 * 60_000;
const pendingKey = (id: string) => `logout-pending:${id}`;

export interface LogoutDeps extends BackchannelDeps {
  sessions: SessionManager;
  pages: PageRenderer;
  kv: KeyValueStore;
  /** The apps' brands: the sign-out pages show the app's, else the signed-in tenant's. */
  brands?: Brands;
  /** Keys.VerifySignature: the payload when a published signing key verifies the JWS, else undefined. */
  verifySignature(jws: string): Promise<string | undefined>;
}

/** A checked logout request: its app (when named), where to go afterwards, and the page language. */
interface ResolvedLogout {
  client?: directory.Client;
  hint?: IdTokenHint;
  redirectUri?: string;
  state?: string;
  locale: Locale;
}

/** What a confirmation page waits for, bound to the browser session that saw it. */
interface PendingLogout {
  sessionKey: string;
  clientId?: string;
  redirectUri?: string;
  state?: string;
  locale: Locale;
}

const form = strictUrlencoded('32kb');

/**
 * RP-Initiated Logout 1.0 at {auth_url}/logout (GET and POST): checks the request (resolveLogout), then ends
 * at once the session a verified id_token_hint names by its sid, with or without that browser's cookie (an
 * RP's server may call), or the browser's session when the hint names it; otherwise, when the hint is
 * missing or stale and the browser is signed in, after the person confirms on a page (Sign out / Cancel). Ending it notifies the session's apps over
 * the back channel (end-session.ts), then redirects to the registered post_logout_redirect_uri with state,
 * or shows "You are signed out". A bad request is never redirected: an error page, or OAuth error JSON
 * for a caller that asks for JSON.
 */
export function mountLogout(router: Router, deps: LogoutDeps): void {
  const start = async (req: Request, res: Response, source: Record<string, unknown>) => {
    res.set('Cache-Control', 'no-store');
    let resolved: ResolvedLogout;
    let params: LogoutParams | undefined;
    try {
      params = readLogoutParams(source);
      resolved = await resolveLogout(deps, req, params);
    } catch (err) {
      if (err instanceof LogoutError) return sendLogoutError(deps, req, res, err, params?.uiLocales ?? []);
      throw err;
    }
    const session = await deps.sessions.load(req);
    await brandLogout(deps, res, resolved.client, session);
    const named = await sessionNamedBySid(deps, resolved);
    if (named) {
      // The browser's own session is ended with its cookie; any other (an RP's server calling) by its record.
      await endSession(
        deps,
        named.session,
        named.signedIn,
        named.session.key === session?.key ? res : undefined,
      );
      return finish(res, deps, resolved);
    }
    const signedIn = endable(session, resolved.client);
    if (!session || !signedIn) return finish(res, deps, resolved);
    if (hintNamesSession(resolved.hint, signedIn)) {
      await endSession(deps, session, signedIn, res);
      return finish(res, deps, resolved);
    }
    const id = randomBytes(32).toString('base64url');
    const pending: PendingLogout = {
      sessionKey: session.key,
      ...(resolved.client ? { clientId: resolved.client.clientId } : {}),
      ...(resolved.redirectUri ? { redirectUri: resolved.redirectUri } : {}),
      ...(resolved.state !== undefined ? { state: resolved.state } : {}),
      locale: resolved.locale,
    };
    await deps.kv.set(pendingKey(id), JSON.stringify(pending), { ttlMs: PENDING_TTL_MS });
    sendPage(
      deps,
      res,
      'logout-confirm',
      resolved.locale,
      {
        csrf: session.csrf,
        action: `${CONFIRM_PATH}/${id}`,
        ...(resolved.client ? { appName: resolved.client.appName } : {}),
      },
      { formTargets: webOrigins(resolved.redirectUri) },
    );
  };

  router.get(LOGOUT_PATH, (req, res, next) => {
    start(req, res, req.query as Record<string, unknown>).catch(next);
  });
  router.post(LOGOUT_PATH, form, (req, res, next) => {
    start(req, res, (req.body ?? {}) as Record<string, unknown>).catch(next);
  });

  router.post(`${CONFIRM_PATH}/:id`, form, (req, res, next) => {
    confirm(deps, req, res).catch(next);
  });
}

/** The answer of a confirmation page: Sign out ends the session; Cancel leaves it as it was. */
async function confirm(deps: LogoutDeps, req: Request, res: Response): Promise<void> {
  res.set('Cache-Control', 'no-store');
  const id = String(req.params.id ?? '');
  const raw = /^[\w-]{43}$/.test(id) ? await deps.kv.get(pendingKey(id)) : undefined;
  const session = await deps.sessions.load(req);
  const pending = raw ? (JSON.parse(raw) as PendingLogout) : undefined;
  if (!pending || !session || pending.sessionKey !== session.key)
    return sendErrorPage(deps, req, res, 400, 'flowExpired', pending?.locale);
  const client = pending.clientId ? await deps.getClient(pending.clientId) : undefined;
  await brandLogout(deps, res, client, session);
  if (!deps.sessions.csrfMatches(session, (req.body as Record<string, unknown>)?.csrf))
    return sendErrorPage(deps, req, res, 403, 'csrf', pending.locale);
  await deps.kv.del(pendingKey(id));
  const resolved: ResolvedLogout = {
    ...(pending.redirectUri ? { redirectUri: pending.redirectUri } : {}),
    ...(pending.state !== undefined ? { state: pending.state } : {}),
    locale: pending.locale,
  };
  if ((req.body as Record<string, unknown>)?.decision !== 'logout') {
    sendPage(deps, res, 'done', pending.locale, {
      title: 'logout.cancelled.title',
      message: 'logout.cancelled.text',
    });
    return;
  }
  const signedIn = endable(session, client);
  if (signedIn) await endSession(deps, session, signedIn, res);
  finish(res, deps, resolved);
}

/**
 * The brand of a logout's pages (confirm, signed out, cancelled): the app that asked, else the tenant the
 * browser is signed in to; neither known (a bare /logout of a signed-out browser), the neutral design.
 */
async function brandLogout(
  deps: Pick<LogoutDeps, 'brands'>,
  res: Response,
  client: directory.Client | undefined,
  session: BrowserSession | undefined,
): Promise<void> {
  const tenantId = session?.signedIn?.tenantId;
  await withBrandOf(deps, res, client ?? (tenantId ? { tenantId } : undefined));
}

/**
 * Checks a logout request before anything changes: the hint (signature, issuer; expired is fine), that it
 * belongs to client_id when both are given, that the client exists, and that post_logout_redirect_uri is one
 * the client registered, character for character. A redirect URI without a known client is refused.
 */
export async function resolveLogout(
  deps: Pick<LogoutDeps, 'getClient' | 'verifySignature' | 'issuer'>,
  req: Request,
  params: LogoutParams,
): Promise<ResolvedLogout> {
  const hint = params.idTokenHint ? await checkIdTokenHint(params.idTokenHint, deps) : undefined;
  if (hint && params.clientId && hint.clientId !== params.clientId)
    throw new LogoutError('invalid_request', 'id_token_hint was not issued to client_id', 'foreignHint');
  const clientId = hint?.clientId ?? params.clientId;
  const client = clientId ? await deps.getClient(clientId) : undefined;
  if (clientId && !client) throw new LogoutError('invalid_request', 'unknown client_id', 'unknownClient');
  if (params.postLogoutRedirectUri !== undefined) {
    if (!client)
      throw new LogoutError(
        'invalid_request',
        'post_logout_redirect_uri needs client_id or id_token_hint',
        'missingClient',
      );
    if (!(client.postLogoutRedirectUris ?? []).includes(params.postLogoutRedirectUri))
      throw new LogoutError(
        'invalid_request',
        'post_logout_redirect_uri is not registered for this client',
        'unregisteredRedirectUri',
      );
  }
  return {
    ...(client ? { client } : {}),
    ...(hint ? { hint } : {}),
    ...(params.postLogoutRedirectUri ? { redirectUri: params.postLogoutRedirectUri } : {}),
    ...(params.state !== undefined ? { state: params.state } : {}),
    locale: negotiateLocale(params.uiLocales, req.get('accept-language')),
  };
}

/**
 * Who this logout may sign out: the session's person, unless the app is of another tenant (an app can end
 * only a session of its own tenant; the other tenant's session stays as it is).
 */
function endable(session: BrowserSession | undefined, client: directory.Client | undefined) {
  const signedIn = session?.signedIn;
  if (!signedIn) return undefined;
  return client && client.tenantId !== signedIn.tenantId ? undefined : signedIn;
}

/** The hint names the browser's current session: same person and, when both have one, the same sid. */
function hintNamesSession(hint: IdTokenHint | undefined, signedIn: SignedIn): boolean {
  if (!hint || hint.sub !== signedIn.userId) return false;
  return hint.sid === undefined || hint.sid === signedIn.sid;
}

/**
 * The signed-in session a verified id_token_hint names by its sid (found without the browser's cookie), when
 * it is the hint's person's and the hint's app may end it (endable). A sid naming no live session is nothing.
 */
async function sessionNamedBySid(
  deps: Pick<LogoutDeps, 'sessions'>,
  resolved: ResolvedLogout,
): Promise<{ session: BrowserSession; signedIn: SignedIn } | undefined> {
  const hint = resolved.hint;
  if (!hint?.sid) return undefined;
  const session = await deps.sessions.findBySid(hint.sid);
  const signedIn = endable(session, resolved.client);
  if (!session || !signedIn || signedIn.userId !== hint.sub) return undefined;
  return { session, signedIn };
}

/**
 * Ends the session and tells its apps over the back channel, once: of two logouts ending it at the same time
 * only the one that deleted it notifies. With the browser's response (`res`) its cookie is cleared too.
 */
async function endSession(deps: LogoutDeps, session: BrowserSession, signedIn: SignedIn, res?: Response) {
  const ended = res ? await deps.sessions.end(res, session) : await deps.sessions.endStored(session);
  if (!ended) return;
  const notified = await notifyBackchannel(deps, signedIn);
  deps.logger.info(
    {
      tenantId: signedIn.tenantId,
      apps: (signedIn.clients ?? []).length,
      notified: notified.length,
      withCookie: res !== undefined,
    },
    'browser session ended by RP-initiated logout',
  );
}

/** After the logout: to the registered post_logout_redirect_uri with state, else the signed-out page. */
function finish(res: Response, deps: Pick<LogoutDeps, 'pages'>, resolved: ResolvedLogout): void {
  if (resolved.redirectUri) {
    res
      .set('Cache-Control', 'no-store')
      .redirect(303, postLogoutLocation(resolved.redirectUri, resolved.state));
    return;
  }
  sendPage(deps, res, 'done', resolved.locale, { title: 'logout.done.title', message: 'logout.done.text' });
}

/**
 * A refused logout request: the OAuth error JSON for a caller that asks for JSON, else the error page with
 * the reason (which part is wrong), in the ui_locales language when they could be read.
 */
function sendLogoutError(
  deps: Pick<LogoutDeps, 'pages'>,
  req: Request,
  res: Response,
  err: LogoutError,
  uiLocales: string[],
) {
  if (req.accepts(['html', 'json']) === 'json') {
    res.status(400).json({ error: err.error, error_description: err.description });
    return;
  }
  const view = {
    title: 'error.logout.title',
    message: 'error.logout.message',
    detail: `error.logout.reason.${err.reason}`,
  };
  sendPage(deps, res, 'error', negotiateLocale(uiLocales, req.get('accept-language')), view, { status: 400 });
}

/** The http(s) origin a confirmation form may end at (CSP form-action follows the redirect). */
function webOrigins(uri: string | undefined): string[] {
  if (!uri) return [];
  const url = new URL(uri);
  return url.protocol === 'https:' || url.protocol === 'http:' ? [url.origin] : [];
}
