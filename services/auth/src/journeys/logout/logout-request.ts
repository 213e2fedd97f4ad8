/**
 * Which part of a refused logout request is wrong; the error page says it in the person's language
 * (`error.logout.reason.<reason>` in the catalogs).
 */
export type LogoutErrorReason =
  | 'badParameter'
  | 'badHint'
  | 'foreignHint'
  | 'unknownClient'
  | 'missingClient'
  | 'unregisteredRedirectUri';

/**
 * An RP-Initiated Logout request that cannot be served: an OAuth error code and a description (RFC 6749 §5.2
 * shape), and the reason the error page names.
 */
export class LogoutError extends Error {
  constructor(
    readonly error: 'invalid_request',
    readonly description: string,
    readonly reason: LogoutErrorReason,
  ) {
    super(description);
    this.name = 'LogoutError';
  }
}

/** The parameters of RP-Initiated Logout 1.0 §2 that Sesame reads; every other parameter is ignored. */
export interface LogoutParams {
  idTokenHint?: string;
  clientId?: string;
  postLogoutRedirectUri?: string;
  state?: string;
  uiLocales: string[];
}

const LIMITS = {
  id_token_hint: 16_384,
  client_id: 200,
  post_logout_redirect_uri: 2_000,
  state: 2_000,
  ui_locales: 200,
} as const;

/**
 * Reads the logout parameters from a query (GET) or a form body (POST): each at most once (OIDC Core 3.1.2.1's
 * rule for repeated parameters), within a length limit; an empty value counts as absent.
 */
export function readLogoutParams(source: Record<string, unknown>): LogoutParams {
  const read = (name: keyof typeof LIMITS): string | undefined => {
    const value = source[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string')
      throw new LogoutError('invalid_request', `${name} must be given once`, 'badParameter');
    if (value.length > LIMITS[name])
      throw new LogoutError('invalid_request', `${name} is too long`, 'badParameter');
    return value;
  };
  const idTokenHint = read('id_token_hint');
  const clientId = read('client_id');
  const postLogoutRedirectUri = read('post_logout_redirect_uri');
  const state = read('state');
  const uiLocales = read('ui_locales')?.split(' ').filter(Boolean) ?? [];
  return {
    ...(idTokenHint ? { idTokenHint } : {}),
    ...(clientId ? { clientId } : {}),
    ...(postLogoutRedirectUri ? { postLogoutRedirectUri } : {}),
    ...(state ? { state } : {}),
    uiLocales,
  };
}

/** post_logout_redirect_uri with state added to its query (RP-Initiated Logout 1.0 §3). */
export function postLogoutLocation(uri: string, state: string | undefined): string {
  if (state === undefined) return uri;
  const url = new URL(uri);
  url.searchParams.append('state', state);
  return url.href;
}
