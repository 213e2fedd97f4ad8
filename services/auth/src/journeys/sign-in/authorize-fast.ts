import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import {
  OUTAGE_RETRY_AFTER_S,
  type RawRoute,
  type ServiceMetrics,
  compileTrust,
  durationRecorder,
  outageOf,
  requestIdOf,
  requestIpOf,
  securityHeaders,
  sendRaw,
  trustedProxiesOf,
} from '@sesame/platform';
import { hasPrompt } from '../../authorize/check-prompt';
import { pageBrand } from '../../branding/with-brand';
import { type Locale, negotiateLocale } from '../../i18n';
import { hostedPageHeaders } from '../../pages';
import { blockedCountry } from '../../signin/access-rules';
import { identifyView } from '../../steps/identify/view';
import type { HostedDeps } from '../../web/deps';
import { newFlow } from './authorize';
import { readSimpleQuery } from './simple-query';
import { startSignIn } from './start';

/** Accept-Language values seen, and the locale each picks; bounded, as the header is the caller's. */
const MAX_REMEMBERED_LANGUAGES = 256;

/**
 * GET /authorize for a browser's first visit, answered ahead of express (a raw route): the same validation
 * (parseAuthorizeRequest), flow, session and device cookies, flow events, page and headers as the express
 * route in authorize.ts, without express's per-request machinery (the first page's cost was about ten times a
 * bare node:http answer). It serves only the common case and hands everything else to express untouched,
 * before it has written or stored anything:
 * - a request that carries a session cookie (single sign-on, a returning tab) or a request object,
 * - a query that is not plain `name=value` pairs of parameter names (repeated, bracketed, undecodable, …),
 * - any authorization error (the express route renders the error page or redirect),
 * - a tenant location rule that blocks the caller.
 * The fast-path tests (authorize-fast.test.ts) compare both paths on the same requests.
 */
export function fastAuthorizeRoute(
  deps: HostedDeps,
  opts: { config: { SESAME_ENV: string; SESAME_TRUSTED_PROXIES?: string }; metrics?: ServiceMetrics },
): RawRoute {
  // The same proxies express believes for req.ip (hosts compile the same setting).
  const trust = compileTrust(trustedProxiesOf(opts.config));
  const baseHeaders = pageHeaders();
  const languages = new Map<string, Locale>();
  const localeOf = (uiLocales: string[], acceptLanguage: string | undefined): Locale => {
    if (uiLocales.length || acceptLanguage === undefined) return negotiateLocale(uiLocales, acceptLanguage);
    let locale = languages.get(acceptLanguage);
    if (!locale) {
      locale = negotiateLocale([], acceptLanguage);
      if (languages.size < MAX_REMEMBERED_LANGUAGES) languages.set(acceptLanguage, locale);
    }
    return locale;
  };
  const observe = durationRecorder(opts.metrics, '/authorize');

  async function serve(req: IncomingMessage, res: ServerResponse, next: RequestListener): Promise<void> {
    const started = process.hrtime.bigint();
    const cookies = deps.sessions.cookiesOf(req.headers.cookie);
    if (cookies[deps.sessions.sessionCookie] !== undefined) return next(req, res);
    const params = fastAuthorizeParams(req.url);
    if (!params) return next(req, res);
    let validated: Awaited<ReturnType<HostedDeps['parseAuthorize']>>;
    try {
      validated = await deps.parseAuthorize(params);
    } catch {
      return next(req, res); // nothing stored or sent yet: express answers with its error page or redirect
    }
    const { client, request } = validated;
    // prompt none answers without a page (journeys/sign-in/prompt.ts): the express route does that.
    if (hasPrompt(request, 'none')) return next(req, res);
    const clientIp = requestIpOf(req, trust);
    if (blockedCountry(deps, { blockedCountries: client.blockedCountries }, clientIp)) return next(req, res);

    const requestId = requestIdOf(req.headers['x-request-id']);
    const cookieHeaders: string[] = [];
    try {
      // The per-IP allowance (FlowStore.admitStart), before anything is stored: as the express route answers.
      const refused = await deps.flows.admitStart(clientIp);
      if (refused) {
        const html = deps.pages.render('error', negotiateLocale([], req.headers['accept-language']), {
          title: 'error.tooManyStarts.title',
          message: 'error.tooManyStarts.message',
        });
        const retry = ['Retry-After', String(refused.retryAfterS)];
        sendRaw(res, 429, [...baseHeaders, 'X-Request-Id', requestId, ...retry], html);
        return observe('GET', 429, started);
      }
      const session = deps.sessions.startSession(); // anonymous: nothing stored
      cookieHeaders.push('Set-Cookie', session.setCookie);
      let deviceId = deps.sessions.knownDevice(cookies);
      if (!deviceId) {
        const device = deps.sessions.newDevice();
        cookieHeaders.push('Set-Cookie', device.setCookie);
        deviceId = device.value;
      }
      const flow = newFlow(deps, {
        client,
        request,
        sessionKey: session.value.key,
        locale: localeOf(request.uiLocales, req.headers['accept-language']),
        clientIp,
        device: { deviceId, facts: deps.deviceFacts(req.headers['user-agent']) },
      });
      // The brand is cached (one gRPC call per app and change): looked up while the flow is stored.
      const [, brand] = await Promise.all([startSignIn(deps, flow), pageBrand(deps, flow)]);
      const html = deps.pages.render(
        'identify',
        flow.locale,
        identifyView(flow, session.value.csrf, undefined, mobileHint(req.headers['sec-ch-ua-mobile'])),
        brand,
      );
      sendRaw(res, 200, [...baseHeaders, 'X-Request-Id', requestId, ...cookieHeaders], html);
      observe('GET', 200, started);
    } catch (err) {
      // As hostedErrors does for the express route: the generic error page, never JSON or a stack trace.
      const outage = outageOf(err);
      if (outage)
        deps.logger.warn(
          { err, reqId: requestId, path: '/authorize' },
          'hosted page failed: a store or peer is unavailable',
        );
      else deps.logger.error({ err, reqId: requestId, path: '/authorize' }, 'hosted page failed');
      const status = outage ? 503 : 500;
      const html = deps.pages.render('error', negotiateLocale([], req.headers['accept-language']), {
        title: 'error.generic.title',
        message: 'error.generic.message',
      });
      const retry = outage ? ['Retry-After', String(OUTAGE_RETRY_AFTER_S)] : [];
      sendRaw(res, status, [...baseHeaders, 'X-Request-Id', requestId, ...cookieHeaders, ...retry], html);
      observe('GET', status, started);
    }
  }

  return {
    method: 'GET',
    path: '/authorize',
    handle: (req, res, next) =>
      void serve(req, res, next).catch((err: unknown) => {
        // Not expected (serve answers its own failures); never an unhandled rejection: express answers if it can.
        deps.logger.error({ err, path: '/authorize' }, 'raw /authorize failed');
        if (!res.headersSent) next(req, res);
        else res.destroy();
      }),
  };
}

/**
 * The parameters the fast path validates itself: a plain query (readSimpleQuery) without a request object;
 * undefined hands the request to express. fast-vs-full.test.ts holds it to the express route's reading.
 */
export function fastAuthorizeParams(target: string | undefined): Record<string, string> | undefined {
  const params = readSimpleQuery(target ?? '');
  if (!params || params.request !== undefined || params.request_uri !== undefined) return undefined;
  return params;
}

/**
 * The headers express sends with a hosted page that has no form target outside auth: helmet's (the platform's
 * createHttpApp), then the page's own (pages/headers.ts), which win where both set one.
 */
function pageHeaders(): string[] {
  const merged = new Map<string, [string, string]>();
  for (const [name, value] of securityHeaders()) merged.set(name.toLowerCase(), [name, value]);
  for (const [name, value] of Object.entries(hostedPageHeaders()))
    merged.set(name.toLowerCase(), [merged.get(name.toLowerCase())?.[0] ?? name, value]);
  return [...merged.values()].flat();
}

/** The Sec-CH-UA-Mobile client hint as one string (a repeated header arrives as an array). */
const mobileHint = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
