import { OAuthError } from '@sesame/platform';

/**
 * A refusal found by one check: an OAuth / OIDC error of @sesame/oauth's oauthErrors (OIDC Core 3.1.2.6,
 * RFC 6749 4.1.2.1) with a fixed description. Descriptions name a parameter or a rule, never the caller's
 * input, so nothing the caller sent is reflected into the page or the redirect. Its HTTP status is not used:
 * /authorize answers with a page or a redirect.
 */
export type AuthorizeProblem = OAuthError;

/** Whether a thrown value is a check's refusal (rather than an outage or a bug). */
export const isAuthorizeProblem = (err: unknown): err is AuthorizeProblem => err instanceof OAuthError;

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
