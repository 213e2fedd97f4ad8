import type { IncomingMessage } from 'node:http';
import { bearerErrors, oauthErrors } from '@sesame/oauth';
import { readBody } from '../http/json-endpoint';

/** RFC 6750 §2.1's credentials: `Bearer` and a b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
/** RFC 9449 §7.1: the same token68 under the DPoP scheme. */
const DPOP = /^DPoP +([A-Za-z0-9\-._~+/]+=*) *$/i;
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const FORM = 'application/x-www-form-urlencoded';

const isForm = (contentType: string | undefined) =>
  contentType?.split(';', 1)[0]?.trim().toLowerCase() === FORM;

/** The access_token of a form body (RFC 6750 §2.2): at most once; an empty value counts as absent. */
function formToken(body: string): string | undefined {
  const values = new URLSearchParams(body).getAll('access_token');
  if (values.length > 1) throw bearerErrors.invalidRequest('access_token is included more than once');
  const token = values[0];
  if (!token) return undefined;
  if (!B64TOKEN.test(token))
    throw oauthErrors.invalidToken('the access_token parameter is not a Bearer token');
  return token;
}

/**
 * The Bearer access token of a protected resource request (/userinfo), from the one place it was sent: the
 * Authorization header (RFC 6750 §2.1) or, on a POST with an application/x-www-form-urlencoded body, the
 * body's access_token (§2.2). A token in two places, or in the URI query (§2.3, which Sesame does not take:
 * URLs end up in logs), is 400 invalid_request; a GET's or another content type's body is not read. No token
 * anywhere: 401 with the bare challenge (§3.1). `Authorization: DPoP <token>` (RFC 9449 §7.1) is read too,
 * and said so: the caller then checks the proof.
 */
export async function readBearerToken(req: IncomingMessage): Promise<PresentedAccessToken> {
  if (req.url?.includes('?') && new URLSearchParams(req.url.slice(req.url.indexOf('?'))).has('access_token'))
    throw bearerErrors.invalidRequest(
      'access_token in the URI query is not accepted: send the Authorization header or a POST form body',
    );
  let bodyToken: string | undefined;
  if (req.method === 'POST' && isForm(req.headers['content-type']))
    bodyToken = formToken(await readBody(req));
  else req.resume();
  const header = req.headers.authorization;
  if (header && bodyToken !== undefined)
    throw bearerErrors.invalidRequest(
      'the access token must be sent one way only: the Authorization header or the form body',
    );
  if (bodyToken !== undefined) return { token: bodyToken, scheme: 'Bearer' };
  if (!header) throw bearerErrors.missing();
  const dpop = DPOP.exec(header)?.[1];
  if (dpop) return { token: dpop, scheme: 'DPoP' };
  const token = BEARER.exec(header)?.[1];
  if (!token)
    throw oauthErrors.invalidToken('the Authorization header must be Bearer <token> or DPoP <token>');
  return { token, scheme: 'Bearer' };
}

/** An access token as a resource request carried it: Bearer (header or form body) or DPoP (header). */
export interface PresentedAccessToken {
  token: string;
  scheme: 'Bearer' | 'DPoP';
}
