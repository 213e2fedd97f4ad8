import { oauthErrors as cibaErrors } from '@sesame/oauth';
import { OAuthError } from '@sesame/platform';
import { directory } from '@sesame/proto';
import { isAuthorizeProblem } from '../authorize/authorize-error';
import { checkAcrValues } from '../authorize/check-acr-values';
import { checkBoundTo } from '../authorize/check-bound-to';
import { checkClaims } from '../authorize/check-claims';
import { checkLoginHint } from '../authorize/check-login-hint';
import { checkScope } from '../authorize/check-scope';
import { readUiLocales } from '../authorize/read-ui-locales';
import type { RequestedClaims } from '../authorize/types';
import { checkBindingMessage } from './check-binding-message';
import { type Channel, checkChannel } from './check-channel';
import { checkNotificationToken } from './check-notification-token';

/** The form fields of spec 4.3; anything else is ignored. */
export const CIBA_PARAMS = [
  'client_id',
  'client_secret',
  'client_assertion',
  'client_assertion_type',
  'request',
  'client_notification_token',
  'scope',
  'channel',
  'acr_values',
  'claims',
  'login_hint',
  'bound_to',
  'binding_message',
  'ui_locales',
] as const;
export type CibaParamName = (typeof CIBA_PARAMS)[number];
export type CibaParams = Partial<Record<CibaParamName, string>>;

/** The fields that authenticate the client: the only ones allowed beside a signed request (`request`). */
const CLIENT_AUTH_PARAMS = new Set<CibaParamName>([
  'client_id',
  'client_secret',
  'client_assertion',
  'client_assertion_type',
  'request',
]);
/** The authentication request's own fields: in a signed request, these come from its claims only. */
const REQUEST_PARAMS = CIBA_PARAMS.filter((name) => !CLIENT_AUTH_PARAMS.has(name));
/** Claims that may be JSON objects in a signed request (form fields carry them as JSON text). */
const OBJECT_CLAIMS = new Set<CibaParamName>(['claims', 'channel']);

/**
 * The parameters of a signed authentication request (CIBA Core 7.1.1), from its verified claims. The request's
 * parameters must not also appear as form fields (only client authentication may), and a client_id claim
 * must be the authenticated client's. `claims` and `channel` may be objects; every other parameter a string.
 * Registered claims (iss, aud, exp, ...) and unknown ones are ignored like unknown form fields.
 */
export function signedRequestParams(
  form: CibaParams,
  claims: Record<string, unknown>,
  clientId: string,
): CibaParams {
  const outside = REQUEST_PARAMS.filter((name) => form[name] !== undefined);
  if (outside.length)
    throw cibaErrors.invalidRequest(
      `with a signed request, ${outside.join(', ')} must be inside it, not beside it (CIBA Core 7.1.1)`,
    );
  if (claims.client_id !== undefined && claims.client_id !== clientId)
    throw cibaErrors.invalidRequest("signed authentication request client_id must be the client's client_id");
  const params: CibaParams = {};
  for (const name of REQUEST_PARAMS) {
    const value = claims[name];
    if (value === undefined || value === '') continue;
    if (typeof value === 'string') params[name] = value;
    else if (OBJECT_CLAIMS.has(name) && typeof value === 'object' && value !== null && !Array.isArray(value))
      params[name] = JSON.stringify(value);
    else throw cibaErrors.invalidRequest(`signed authentication request member ${name} must be a string`);
  }
  return params;
}

/** A validated CIBA request (spec 4.3); absent optional fields are absent keys. */
export interface CibaRequest {
  scope: string[];
  channel: Channel;
  acrValues: string[];
  claims?: RequestedClaims;
  loginHint?: string;
  boundTo?: { type: 'alias' | 'sub'; value: string };
  bindingMessage?: string;
  uiLocales: string[];
  clientNotificationToken?: string;
}

/**
 * One string per field: a repeated field is ambiguous (RFC 6749 §3.1) and refused; an empty one counts as
 * absent. Runs before client authentication, which needs client_id and client_secret.
 */
export function readCibaParams(body: unknown): CibaParams {
  const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const params: CibaParams = {};
  for (const name of CIBA_PARAMS) {
    const value = raw[name];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') throw cibaErrors.invalidRequest(`${name} must be a single value`);
    params[name] = value;
  }
  return params;
}

/**
 * Checks an authenticated client's request, in this order: the client may use CIBA at all, scope, channel,
 * the notification token for its delivery mode, then the parameters shared with /authorize (same checks,
 * same rules), then binding_message. /authorize's problems keep their code (all three are §13 codes too).
 */
export function checkCibaRequest(params: CibaParams, client: directory.Client): CibaRequest {
  const mode = client.ciba?.mode ?? directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_UNSPECIFIED;
  if (
    mode !== directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_POLL &&
    mode !== directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_PING
  ) {
    throw cibaErrors.unauthorizedClient('this client is not registered for CIBA');
  }
  try {
    const scope = checkScope(params.scope, client);
    const channel = checkChannel(params.channel);
    const clientNotificationToken = checkNotificationToken(params.client_notification_token, mode);
    const request: CibaRequest = {
      scope,
      channel,
      acrValues: checkAcrValues(params.acr_values),
      claims: checkClaims(params.claims),
      // Addresses are kept in lower case: a hint in any case names the same person.
      loginHint: checkLoginHint(params.login_hint)?.toLowerCase(),
      boundTo: checkBoundTo(params.bound_to),
      bindingMessage: checkBindingMessage(params.binding_message),
      uiLocales: readUiLocales(params.ui_locales),
      clientNotificationToken,
    };
    return Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined)) as CibaRequest;
  } catch (err) {
    if (isAuthorizeProblem(err)) throw new OAuthError(err.code, err.description, 400);
    throw err;
  }
}
