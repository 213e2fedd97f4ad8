import { oauthErrors } from '@sesame/oauth';
import type { TokenDeps } from '../../../deps';
import type { Client } from '../../../directory/directory';
import type { BackchannelState } from '../../../grants/backchannel-requests';
import { grantedScope } from '../../../grants/granted-scope';
import { issueUserTokens } from '../../../grants/issue-tokens';
import { authenticateClient, mtlsOf, throttled } from '../checks/authenticate-client';
import { certificateBinding } from '../checks/certificate-binding';
import { checkDpop } from '../checks/check-dpop';
import { readClientCredentials } from '../checks/read-client-credentials';
import { requireParam } from '../checks/read-form-params';
import type { GrantHandler, TokenAnswer } from '../token-request';

/**
 * grant_type=urn:openid:params:grant-type:ciba, polled by the client. Answers, in order: invalid_grant
 * (unknown or another client's auth_req_id), expired_token, access_denied, the tokens (once), slow_down
 * (polled within the interval), and pending — spec 3's HTTP 200 with `status`, or CIBA Core §11's HTTP
 * 400 for clients whose `ciba.strict_errors` is set.
 */
export function cibaGrant(deps: TokenDeps): GrantHandler {
  return async (request) => {
    const credentials = readClientCredentials(request);
    const client = await throttled(deps, request, credentials.clientId, (directory) =>
      authenticateClient(directory, credentials, {
        allowPublic: false,
        assertions: deps.assertions,
        mtls: mtlsOf(deps, request),
      }),
    );
    const jkt = await checkDpop(deps, request, client);
    // RFC 8705 3: an app with certificate-bound tokens polls with its certificate (FAPI-CIBA), pending or not.
    const binding = certificateBinding(client, request);
    const authReqId = requireParam(request, 'auth_req_id');
    const state = await findOwnRequest(deps, authReqId, client);
    if (deps.clock.now() >= state.request.expiresAt)
      throw oauthErrors.expiredToken('auth_req_id has expired');
    if (state.outcome?.kind === 'denied')
      throw oauthErrors.accessDenied('the user denied the authentication request');
    if (state.outcome?.kind === 'completed')
      return redeem(deps, authReqId, state, client, { jkt, ...binding });
    if (!(await deps.backchannel.passPollGate(authReqId, state.request.intervalS))) {
      throw oauthErrors.slowDown(`polled faster than the interval of ${state.request.intervalS} s`);
    }
    return pending(client, state);
  };
}

async function findOwnRequest(deps: TokenDeps, authReqId: string, client: Client): Promise<BackchannelState> {
  const state = await deps.backchannel.state(authReqId);
  if (!state || state.request.clientId !== client.clientId)
    throw oauthErrors.invalidGrant('auth_req_id is invalid');
  return state;
}

async function redeem(
  deps: TokenDeps,
  authReqId: string,
  state: BackchannelState,
  client: Client,
  bindings: { jkt: string | undefined; certificateThumbprint?: string },
): Promise<TokenAnswer> {
  const outcome = await deps.backchannel.redeem(authReqId);
  if (outcome?.kind !== 'completed') throw oauthErrors.invalidGrant('auth_req_id is invalid');
  const { request } = state;
  const issued = await issueUserTokens(deps, {
    tenantId: request.tenantId,
    appId: request.appId,
    clientId: request.clientId,
    // No refresh tokens for CIBA grants: offline_access is not granted.
    scope: grantedScope(request.scope, false),
    claims: outcome.claims,
    login: outcome.login,
    ...(bindings.jkt ? { jkt: bindings.jkt } : {}),
    ...(bindings.certificateThumbprint ? { certificateThumbprint: bindings.certificateThumbprint } : {}),
    idTokenAlg: client.idTokenSignedResponseAlg,
  });
  return { status: 200, body: { ...issued.response } };
}

function pending(client: Client, state: BackchannelState): TokenAnswer {
  if (client.ciba?.strictErrors) {
    throw oauthErrors.authorizationPending(
      state.status === 'link_opened' ? 'the user opened the link' : 'the link was sent to the user',
    );
  }
  return { status: 200, body: { error: 'authorization_pending', status: state.status } };
}
