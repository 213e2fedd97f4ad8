import { HttpError, OAuthError } from '@sesame/platform';

const REALM = 'sesame';

/** The challenge of a 401 invalid_client (RFC 6749 §5.2): the scheme a client may retry with. */
export const BASIC_CHALLENGE = Object.freeze({ 'WWW-Authenticate': `Basic realm="${REALM}"` });

type Factory = (description: string) => OAuthError;

/** One error code with the status every endpoint answers it with, and the headers it always carries. */
function code(name: string, status: number, headers?: Readonly<Record<string, string>>): Factory {
  return (description) => {
    const err = new OAuthError(name, description, status);
    if (headers) err.headers = { ...headers };
    return err;
  };
}

/**
 * Every OAuth 2.0 / OIDC / CIBA error code Sesame answers, one factory each (RFC 6749 §4.1.2.1 and §5.2,
 * OIDC Core §3.1.2.6, CIBA Core §11 and §13). Each returns an OAuthError (`{error, error_description}`)
 * with the endpoint's HTTP status. /authorize sends its codes in a redirect or an error page, where the
 * status is not used. Descriptions name a parameter or a rule, never the caller's input.
 */
export const oauthErrors = {
  invalidRequest: code('invalid_request', 400),
  invalidClient: code('invalid_client', 401, BASIC_CHALLENGE),
  invalidGrant: code('invalid_grant', 400),
  unauthorizedClient: code('unauthorized_client', 400),
  unsupportedGrantType: code('unsupported_grant_type', 400),
  unsupportedResponseType: code('unsupported_response_type', 400),
  invalidScope: code('invalid_scope', 400),
  accessDenied: code('access_denied', 400),
  // CIBA Core §11 (the token endpoint's answers to a poll)
  authorizationPending: code('authorization_pending', 400),
  slowDown: code('slow_down', 400),
  expiredToken: code('expired_token', 400),
  // OIDC Core §3.1.2.6
  loginRequired: code('login_required', 400),
  consentRequired: code('consent_required', 400),
  interactionRequired: code('interaction_required', 400),
  invalidRequestObject: code('invalid_request_object', 400),
  requestNotSupported: code('request_not_supported', 400),
  requestUriNotSupported: code('request_uri_not_supported', 400),
  // RFC 9126 §2.3 / RFC 9101 §7: a request_uri that is unknown, expired, used or another client's
  invalidRequestUri: code('invalid_request_uri', 400),
  // CIBA Core §13 (the backchannel authentication endpoint's answers)
  unknownUserId: code('unknown_user_id', 400),
  invalidBindingMessage: code('invalid_binding_message', 400),
  serverError: code('server_error', 500),
  /**
   * A resource server's refusal of a bearer token (RFC 6750 §3.1): 401 with a Bearer challenge naming the
   * error; no error code in the challenge when the request carried no token at all.
   */
  invalidToken: (description: string, tokenGiven = true): OAuthError => {
    const err = new OAuthError('invalid_token', description, 401);
    err.headers = {
      'WWW-Authenticate': tokenGiven
        ? `Bearer realm="${REALM}", error="invalid_token", error_description="${description.replace(/["\\]/g, "'")}"`
        : `Bearer realm="${REALM}"`,
    };
    return err;
  },
  /** The service cannot answer now; the client retries after `retryAfterS` seconds. */
  temporarilyUnavailable: (description: string, retryAfterS: number): OAuthError => {
    const err = new OAuthError('temporarily_unavailable', description, 503);
    err.headers = { 'Retry-After': String(retryAfterS) };
    return err;
  },
} as const;

export type OAuthErrorName = keyof typeof oauthErrors;

/**
 * RFC 6750 §3.1 for a protected resource request that carries no authentication information at all: 401 with
 * the bare Bearer challenge and no error code, neither in the challenge nor in the body (an empty object).
 */
class BearerTokenMissing extends HttpError {
  readonly status = 401;
  /** For logs and metrics only: never sent. */
  readonly code = 'bearer_token_missing';
  constructor() {
    super('no access token was sent');
    this.name = 'BearerTokenMissing';
    this.headers = { 'WWW-Authenticate': `Bearer realm="${REALM}"` };
  }
  body() {
    return {};
  }
}

/** A protected resource's (Bearer) answers beside invalid_token (oauthErrors.invalidToken), RFC 6750 §3.1. */
export const bearerErrors = {
  /** No token in any of the accepted places. */
  missing: (): HttpError => new BearerTokenMissing(),
  /** A malformed request (the token sent twice, or in a place not accepted): 400 with the error in the challenge. */
  invalidRequest: (description: string): OAuthError => {
    const err = new OAuthError('invalid_request', description, 400);
    err.headers = {
      'WWW-Authenticate': `Bearer realm="${REALM}", error="invalid_request", error_description="${description.replace(/["\\]/g, "'")}"`,
    };
    return err;
  },
} as const;
