import { OAuthError } from '@sesame/platform';

/**
 * The /token errors and their status codes (ARCHITECTURE §7; RFC 6749 §5.2; CIBA Core §11). invalid_client
 * is 401 with a Basic challenge: the scheme a client may use to retry with credentials.
 */
export const tokenErrors = {
  invalidRequest: (description: string) => new OAuthError('invalid_request', description, 400),
  invalidClient: (description: string) => {
    const err = new OAuthError('invalid_client', description, 401);
    err.headers = { 'WWW-Authenticate': 'Basic realm="sesame"' };
    return err;
  },
  invalidGrant: (description: string) => new OAuthError('invalid_grant', description, 400),
  unauthorizedClient: (description: string) => new OAuthError('unauthorized_client', description, 400),
  unsupportedGrantType: (description: string) => new OAuthError('unsupported_grant_type', description, 400),
  invalidScope: (description: string) => new OAuthError('invalid_scope', description, 400),
  // CIBA Core §11
  authorizationPending: (description: string) => new OAuthError('authorization_pending', description, 400),
  slowDown: (description: string) => new OAuthError('slow_down', description, 400),
  expiredToken: (description: string) => new OAuthError('expired_token', description, 400),
  accessDenied: (description: string) => new OAuthError('access_denied', description, 400),
};
