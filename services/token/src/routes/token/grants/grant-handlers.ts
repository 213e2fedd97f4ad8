import {
  AUTHORIZATION_CODE_GRANT_TYPE,
  CIBA_GRANT_TYPE,
  CLIENT_CREDENTIALS_GRANT_TYPE,
  type GrantType,
  REFRESH_TOKEN_GRANT_TYPE,
} from '@sesame/oauth';
import type { TokenDeps } from '../../../deps';
import type { GrantHandler } from '../token-request';
import { authorizationCodeGrant } from './authorization-code';
import { cibaGrant } from './ciba';
import { clientCredentialsGrant } from './client-credentials';
import { refreshTokenGrant } from './refresh-token';

/** The handler of each grant type /token serves: exactly @sesame/oauth's GRANT_TYPES, which discovery lists. */
export function grantHandlers(deps: TokenDeps): Readonly<Record<GrantType, GrantHandler>> {
  return {
    [AUTHORIZATION_CODE_GRANT_TYPE]: authorizationCodeGrant(deps),
    [CIBA_GRANT_TYPE]: cibaGrant(deps),
    [CLIENT_CREDENTIALS_GRANT_TYPE]: clientCredentialsGrant(deps),
    [REFRESH_TOKEN_GRANT_TYPE]: refreshTokenGrant(deps),
  };
}
