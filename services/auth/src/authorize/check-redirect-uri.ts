import { oauthErrors as problems } from '@sesame/oauth';
import type { directory } from '@sesame/proto';
import { AuthorizeError, type AuthorizeProblem, type RedirectTarget } from './authorize-error';
import type { AuthorizeParams } from './read-params';
import type { AuthorizeDeps } from './types';

export interface TrustedTarget extends RedirectTarget {
  client: directory.Client;
}

const page = (problem: AuthorizeProblem) => AuthorizeError.page(problem);

/**
 * Finds where errors may be sent: the client named by client_id and a redirect_uri registered for it,
 * compared by exact string equality (no normalization beyond what registration did). Until both hold,
 * every refusal is an error page: redirecting to an unchecked URI would make /authorize an open redirector
 * (ARCHITECTURE §7). A repeated state is not echoed (the repetition itself is refused later).
 */
export async function resolveRedirectTarget(
  params: AuthorizeParams,
  getClient: AuthorizeDeps['getClient'],
): Promise<TrustedTarget> {
  const { values, repeated } = params;
  if (repeated.has('client_id')) throw page(problems.invalidRequest('client_id must be a single value'));
  if (values.client_id === undefined) throw page(problems.invalidRequest('client_id is required'));
  const client = await getClient(values.client_id);
  if (!client) throw page(problems.invalidClient('client_id is not a registered client'));
  if (repeated.has('redirect_uri'))
    throw page(problems.invalidRequest('redirect_uri must be a single value'));
  if (values.redirect_uri === undefined) throw page(problems.invalidRequest('redirect_uri is required'));
  if (!client.redirectUris.includes(values.redirect_uri)) {
    throw page(problems.invalidRequest('redirect_uri is not registered for this client'));
  }
  const state = repeated.has('state') ? undefined : values.state;
  return { client, redirectUri: values.redirect_uri, ...(state === undefined ? {} : { state }) };
}
