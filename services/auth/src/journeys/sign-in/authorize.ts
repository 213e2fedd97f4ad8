import { newFlowId } from '@sesame/flow-events';
import { strictUrlencoded } from '@sesame/platform';
import type { directory } from '@sesame/proto';
import type { Request, Response, Router } from 'express';
import { hasPrompt } from '../../authorize/check-prompt';
import { withBrand } from '../../branding/with-brand';
import type { Flow, FlowDevice } from '../../flow/flow';
import { type Locale, negotiateLocale } from '../../i18n';
import { blockedCountry } from '../../signin/access-rules';
import { errorRedirect } from '../../signin/prove';
import type { SignInRequest } from '../../signin/request';
import { identifyView } from '../../steps/identify/view';
import type { HostedDeps } from '../../web/deps';
import { type ErrorReason, redirectToRp, sendErrorPage, sendPage, thisDevice } from '../../web/respond';
import { resubmitAsGet } from './authorize-post';
import { answerSilently } from './prompt';
import { offerAccountChoice } from './select-account';
import { startSignIn } from './start';

interface AuthorizeFailure {
  kind: 'page' | 'redirect';
  code: string;
  description: string;
  redirectUri?: string;
  state?: string;
}
const isAuthorizeFailure = (err: unknown): err is AuthorizeFailure =>
  typeof err === 'object' &&
  err !== null &&
  ((err as AuthorizeFailure).kind === 'page' || (err as AuthorizeFailure).kind === 'redirect');

/** The error page for a request that names no trusted redirect target (ARCHITECTURE §7: never a redirect). */
const pageReason = (code: string): ErrorReason =>
  code === 'invalid_client' ? 'unknownClient' : code === 'invalid_request' ? 'badRedirectUri' : 'generic';

/** Everything a new flow is made of besides the deps: the request, the browser and where it is. */
export interface FlowStart {
  client: directory.Client;
  request: SignInRequest;
  sessionKey: string;
  locale: Locale;
  clientIp: string;
  device: FlowDevice;
}

/** The flow a valid authorization request starts (this route and the raw GET of authorize-fast.ts). */
export function newFlow(deps: Pick<HostedDeps, 'now' | 'flowTtlMs'>, start: FlowStart): Flow<SignInRequest> {
  const { client, request } = start;
  const now = deps.now();
  return {
    id: newFlowId(now),
    tenantId: client.tenantId,
    appId: client.appId,
    clientId: client.clientId,
    appName: client.appName,
    sessionKey: start.sessionKey,
    request,
    locale: start.locale,
    createdAt: now,
    expiresAt: now + deps.flowTtlMs,
    step: 'identify',
    clientIp: start.clientIp,
    originatingDevice: start.device,
    email: request.loginHint,
    blockedCountries: client.blockedCountries.length ? [...client.blockedCountries] : undefined,
    ...(client.firstParty ? { firstParty: true } : {}),
  };
}

/** GET and POST {auth_url}/authorize (spec 4.2; OIDC Core 3.1.2.1 allows both): validates, starts a flow, shows its first page. */
export function mountAuthorize(router: Router, deps: HostedDeps): void {
  const handle = async (req: Request, res: Response) => {
    const params = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown>;
    let validated: Awaited<ReturnType<HostedDeps['parseAuthorize']>>;
    try {
      validated = await deps.parseAuthorize(params ?? {});
    } catch (err) {
      if (!isAuthorizeFailure(err)) throw err;
      if (err.kind === 'page' || !err.redirectUri)
        return sendErrorPage(deps, req, res, 400, pageReason(err.code));
      const target = { redirectUri: err.redirectUri, state: err.state } as SignInRequest;
      return redirectToRp(res, errorRedirect(deps, target, err.code, err.description));
    }
    const { client, request } = validated;
    // The per-IP allowance of starts nobody acts on (FlowStore.admitStart): refused before anything is stored.
    const refused = await deps.flows.admitStart(req.ip ?? '0.0.0.0');
    if (refused) {
      res.set('Retry-After', String(refused.retryAfterS));
      return sendErrorPage(deps, req, res, 429, 'tooManyStarts');
    }
    const session = await deps.sessions.ensure(req, res);
    const flow = newFlow(deps, {
      client,
      request,
      sessionKey: session.key,
      locale: negotiateLocale(request.uiLocales, req.get('accept-language')),
      clientIp: req.ip ?? '0.0.0.0',
      device: thisDevice(deps, req, res),
    });
    const country = blockedCountry(deps, flow, flow.clientIp);
    if (country) {
      // The tenant's location rule (spec 7: risk_access_restriction); the flow is recorded, never stored.
      await deps.record(flow, 'restricted_location', {
        status: 'blocked',
        failureReason: `sign-in from a blocked country (${country})`,
      });
      return redirectToRp(
        res,
        errorRedirect(deps, request, 'risk_access_restriction', 'sign-in from a blocked location'),
      );
    }
    if (hasPrompt(request, 'none')) return answerSilently(deps, res, flow, session.signedIn);
    await withBrand(deps, res, flow);
    if (await offerAccountChoice(deps, res, flow, session)) return;
    // Single sign-on: this browser may already have signed the person in for this tenant (startSignIn).
    if ((await startSignIn(deps, flow, session.signedIn)) === 'continue')
      return res.redirect(303, `/flow/${flow.id}/continue`);
    sendPage(
      deps,
      res,
      'identify',
      flow.locale,
      identifyView(flow, session.csrf, undefined, req.get('sec-ch-ua-mobile')),
    );
  };
  router.get('/authorize', (req, res, next) => void handle(req, res).catch(next));
  router.post('/authorize', strictUrlencoded('64kb'), (req, res, next) => {
    // Cross-site POSTs come without the Lax session cookie: sent on as a GET (authorize-post.ts).
    if (resubmitAsGet(deps, req, res)) return;
    void handle(req, res).catch(next);
  });
}
