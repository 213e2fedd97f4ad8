/**
 * A refusal found by one check: an OAuth / OIDC error code and a fixed description. Descriptions name a
 * parameter or a rule, never the caller's input, so nothing the caller sent is reflected into the page or
 * the redirect.
 */
export class AuthorizeProblem extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'AuthorizeProblem';
  }
}

/** The error codes /authorize uses (OIDC Core 3.1.2.6, RFC 6749 4.1.2.1). */
export const problems = {
  invalidRequest: (description: string) => new AuthorizeProblem('invalid_request', description),
  invalidClient: (description: string) => new AuthorizeProblem('invalid_client', description),
  unauthorizedClient: (description: string) => new AuthorizeProblem('unauthorized_client', description),
  unsupportedResponseType: (description: string) =>
    new AuthorizeProblem('unsupported_response_type', description),
  invalidScope: (description: string) => new AuthorizeProblem('invalid_scope', description),
  loginRequired: (description: string) => new AuthorizeProblem('login_required', description),
  invalidRequestObject: (description: string) => new AuthorizeProblem('invalid_request_object', description),
  requestUriNotSupported: (description: string) =>
    new AuthorizeProblem('request_uri_not_supported', description),
};

/** Where a refused request's answer goes, once the redirect_uri is known to be registered for the client. */
export interface RedirectTarget {
  redirectUri: string;
  state?: string;
}

/**
 * What /authorize answers on a refusal (ARCHITECTURE §7). `page`: no redirect target can be trusted (unknown
 * client, missing or unregistered redirect_uri), so the caller renders an HTML error page with status 400
 * and never redirects. `redirect`: the caller sends the browser to `redirectUri` with error,
 * error_description, state (when given) and iss (RFC 9207).
 */
export class AuthorizeError extends Error {
  private constructor(
    readonly kind: 'page' | 'redirect',
    readonly code: string,
    readonly description: string,
    readonly redirectUri: string | undefined,
    readonly state: string | undefined,
  ) {
    super(description);
    this.name = 'AuthorizeError';
  }

  static page(problem: AuthorizeProblem): AuthorizeError {
    return new AuthorizeError('page', problem.code, problem.description, undefined, undefined);
  }

  static redirect(problem: AuthorizeProblem, target: RedirectTarget): AuthorizeError {
    return new AuthorizeError(
      'redirect',
      problem.code,
      problem.description,
      target.redirectUri,
      target.state,
    );
  }
}
