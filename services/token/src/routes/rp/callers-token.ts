import type { TokenDeps } from '../../deps';
import type { Exchange } from '../http/json-endpoint';
import { requireParam } from '../token/checks/read-form-params';
import { type Caller, type CallerRules, authenticateCaller, ownedBy } from './authenticate-caller';
import { type PresentedToken, findLiveToken } from './find-token';
import { readFormRequest } from './form-request';

/**
 * The common start of /revoke and /introspect: reads the form, authenticates the caller under `rules`,
 * requires `token`, and finds it live (by token_type_hint). Undefined for a token that is not live or
 * not the caller's own: the endpoints treat both alike.
 */
export async function findCallersToken(
  deps: TokenDeps,
  x: Exchange,
  rules: CallerRules,
  /** Sees the caller and the token it owns before the endpoint answers (introspect's binding check). */
  inspect?: (caller: Caller, token: PresentedToken) => void,
): Promise<PresentedToken | undefined> {
  const request = await readFormRequest(x);
  const caller = await authenticateCaller(deps, request, rules);
  const token = requireParam(request, 'token');
  const found = await findLiveToken(deps, token, request.params.token_type_hint);
  if (!found) return undefined;
  if (!ownedBy(caller, found.kind === 'access_token' ? found.grant : found.family)) return undefined;
  inspect?.(caller, found);
  return found;
}
