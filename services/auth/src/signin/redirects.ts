import type { SignInRequest } from './request';

export function redirectWith(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** An error redirect to the RP (OIDC Core 3.1.2.6 with RFC 9207's iss). */
export function errorRedirect(
  deps: { issuer: string },
  request: SignInRequest,
  error: string,
  description: string,
): string {
  return redirectWith(request.redirectUri, {
    error,
    error_description: description,
    state: request.state,
    iss: deps.issuer,
  });
}
