import { PAR_REQUEST_URI_PREFIX, isFapi2, oauthErrors } from '@sesame/oauth';
import { AuthorizeError, type AuthorizeProblem, isAuthorizeProblem } from './authorize-error';
import { checkAcrValues } from './check-acr-values';
import { checkAuxLink } from './check-aux-link';
import { checkBoundTo } from './check-bound-to';
import { checkClaims } from './check-claims';
import { checkCustomMessage } from './check-custom-message';
import { checkDisplay } from './check-display';
import { checkDpopJkt } from './check-dpop-jkt';
import { readLoginHint } from './check-login-hint';
import { checkMaxAge } from './check-max-age';
import { checkPkce } from './check-pkce';
import { checkPrompt } from './check-prompt';
import { type TrustedTarget, resolveRedirectTarget } from './check-redirect-uri';
import { checkResponseMode, checkResponseType } from './check-response-type';
import { checkScope } from './check-scope';
import { checkSecurityProfile } from './check-security-profile';
import { type AuthorizeParams, type RawAuthorizeParams, readParams } from './read-params';
import { readUiLocales } from './read-ui-locales';
import { rejectRepeated } from './reject-repeated';
import { applyRequestObject } from './request-object';
import type { AuthorizationRequest, AuthorizeDeps, ValidAuthorization } from './types';

/**
 * Validates a GET or POST /authorize request (spec 4.2) and returns the client and the request, or throws
 * AuthorizeError: `page` while no redirect target is trusted, `redirect` after. Read top down: the request
 * object is merged first (its client_id / redirect_uri count), then the target is resolved, then every
 * parameter is checked in this order.
 */
export async function parseAuthorizeRequest(
  raw: RawAuthorizeParams,
  deps: AuthorizeDeps,
): Promise<ValidAuthorization> {
  const query = readParams(raw);
  const pushed = await pushedParams(query, deps);
  const params = pushed ?? (await applyRequestObjectOrRefuse(query, deps));
  const target = await resolveRedirectTarget(params, deps.getClient);
  try {
    if (!pushed && requiresPar(target.client, deps)) {
      throw oauthErrors.invalidRequest('this client must push its authorization request to /par first');
    }
    return { client: target.client, request: checkParams(params, target, deps) };
  } catch (err) {
    if (isAuthorizeProblem(err)) throw AuthorizeError.redirect(err, target);
    throw err;
  }
}

/**
 * PAR is required by the app's registration (or its FAPI 2.0 profile, §5.3.2.2), or for every app by SESAME_REQUIRE_PAR except Sesame's own
 * first-party console, which signs its admins in with a plain /authorize redirect (mgmt's console/oidc.ts).
 */
const requiresPar = (client: ValidAuthorization['client'], deps: AuthorizeDeps) =>
  client.requirePushedAuthorizationRequests ||
  isFapi2(client) ||
  (deps.requirePushedRequests === true && !client.firstParty);

/**
 * /par (RFC 9126 §2.1): the same checks as /authorize for an authenticated client, plus the parameters to
 * keep (the request object already applied), so /authorize later checks them once more as they are then.
 * request_uri is refused here (§2.1). Refusals are AuthorizeErrors, which /par answers as JSON.
 */
export async function parsePushedRequest(
  raw: RawAuthorizeParams,
  deps: AuthorizeDeps,
): Promise<ValidAuthorization & { values: Record<string, string> }> {
  const query = readParams(raw);
  if (query.values.request_uri !== undefined || query.repeated.has('request_uri')) {
    throw AuthorizeError.page(oauthErrors.invalidRequest('request_uri must not be sent to /par'));
  }
  const params = await applyRequestObjectOrRefuse(query, deps);
  const target = await resolveRedirectTarget(params, deps.getClient);
  try {
    const request = checkParams(params, target, deps);
    return { client: target.client, request, values: { ...params.values } as Record<string, string> };
  } catch (err) {
    if (isAuthorizeProblem(err)) throw AuthorizeError.redirect(err, target);
    throw err;
  }
}

/**
 * A request_uri minted by /par: its pushed parameters replace the query's (RFC 9126 §4; only client_id must
 * be sent again, and must be the pushing client). Unknown, expired, used or another client's:
 * invalid_request_uri, redirected when the query alone names a registered redirect_uri, else the error page.
 * Any other request_uri goes on to the request-object checks (request_uri_not_supported).
 */
async function pushedParams(
  query: AuthorizeParams,
  deps: AuthorizeDeps,
): Promise<AuthorizeParams | undefined> {
  const requestUri = query.values.request_uri;
  if (!deps.takePushedRequest || !requestUri?.startsWith(PAR_REQUEST_URI_PREFIX)) return undefined;
  const values = await deps.takePushedRequest(requestUri, query.values.client_id);
  if (values) return { values, repeated: new Set() };
  const problem = oauthErrors.invalidRequestUri(
    "request_uri is invalid, expired, already used or not this client's",
  );
  throw await refusalFor(problem, query, deps);
}

/**
 * A refused request object (or request_uri) is answered like any other error when the query alone names a
 * client and one of its redirect URIs; otherwise it gets the error page, with the request object's error.
 */
async function applyRequestObjectOrRefuse(
  query: AuthorizeParams,
  deps: AuthorizeDeps,
): Promise<AuthorizeParams> {
  try {
    return await applyRequestObject(query, deps);
  } catch (err) {
    if (!isAuthorizeProblem(err)) throw err;
    throw await refusalFor(err, query, deps);
  }
}

/** A redirect when the query alone names a client and one of its redirect URIs, else the error page. */
async function refusalFor(
  problem: AuthorizeProblem,
  query: AuthorizeParams,
  deps: AuthorizeDeps,
): Promise<AuthorizeError> {
  const target = await resolveRedirectTarget(query, deps.getClient).catch((pageError: unknown) => {
    if (pageError instanceof AuthorizeError) return undefined;
    throw pageError;
  });
  return target ? AuthorizeError.redirect(problem, target) : AuthorizeError.page(problem);
}

function checkParams(
  params: AuthorizeParams,
  target: TrustedTarget,
  deps: Pick<AuthorizeDeps, 'issuer'>,
): AuthorizationRequest {
  const { values: v } = params;
  const { client } = target;
  rejectRepeated(params);
  checkSecurityProfile(client, target.redirectUri, deps.issuer);
  checkResponseType(v.response_type);
  checkResponseMode(v.response_mode);
  checkDisplay(v.display);
  const scope = checkScope(v.scope, client);
  const prompt = checkPrompt(v.prompt);
  const maxAge = checkMaxAge(v.max_age);
  // id_token_hint is accepted and ignored (spec 4.2): a session or a fresh sign-in says who signs in.
  const acrValues = checkAcrValues(v.acr_values);
  const uiLocales = readUiLocales(v.ui_locales);
  const pkce = checkPkce(v.code_challenge, v.code_challenge_method, client);
  const dpopJkt = checkDpopJkt(v.dpop_jkt);
  const customMessage = checkCustomMessage(v.svc_custom_message);
  const auxLink = checkAuxLink(v.svc_aux_link, v.svc_aux_link_title, client);
  const boundTo = checkBoundTo(v.bound_to);
  const claims = checkClaims(v.claims);
  const loginHint = readLoginHint(v.login_hint) ?? claims?.email;
  return withoutUndefined({
    clientId: client.clientId,
    redirectUri: target.redirectUri,
    scope,
    state: target.state,
    nonce: v.nonce,
    prompt,
    maxAge,
    acrValues,
    loginHint,
    uiLocales,
    ...pkce,
    dpopJkt,
    customMessage,
    auxLink,
    boundTo,
    claims,
  });
}

/** Absent optional parameters become absent keys, so the request compares and serializes cleanly. */
function withoutUndefined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) out[key] = value[key];
  return out as T;
}
