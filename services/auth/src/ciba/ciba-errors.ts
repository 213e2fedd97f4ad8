import { OAuthError } from '@sesame/platform';

/**
 * The /authorize_ciba errors (CIBA Core §13, by reference from spec 7): 400 for every request problem,
 * 401 with a Basic challenge for invalid_client (RFC 6749 §5.2), 403 for access_denied.
 */
export const cibaErrors = {
  invalidRequest: (description: string) => new OAuthError('invalid_request', description, 400),
  invalidScope: (description: string) => new OAuthError('invalid_scope', description, 400),
  unknownUserId: (description: string) => new OAuthError('unknown_user_id', description, 400),
  unauthorizedClient: (description: string) => new OAuthError('unauthorized_client', description, 400),
  invalidBindingMessage: (description: string) => new OAuthError('invalid_binding_message', description, 400),
  invalidClient: (description: string) => {
    const err = new OAuthError('invalid_client', description, 401);
    err.headers = { 'WWW-Authenticate': 'Basic realm="sesame"' };
    return err;
  },
  /** The SMS carrying the link could not be delivered: nothing is left pending (no auth_req_id is answered). */
  smsNotDelivered: () => {
    const err = new OAuthError(
      'temporarily_unavailable',
      'the SMS with the authentication link could not be sent; retry later',
      503,
    );
    err.headers = { 'Retry-After': '2' };
    return err;
  },
};
