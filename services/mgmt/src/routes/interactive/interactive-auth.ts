import {
  type Clock,
  INTERACTIVE_AUTH_SCHEME,
  MgmtError,
  interactiveSignature,
  parseInteractiveAuthorization,
  safeEqual,
} from '@sesame/platform';
import type { RequestHandler } from 'express';
import type { ApplicationRepository } from '../../directory/directory.repository';
import type { Application } from '../../directory/model';
import { type GrantsPeer, peerUnavailable } from '../../peers';
import type { ClientSecretVault } from '../../secrets/client-secret-vault';

const REALM = 'sesame-interactive';

/** Who an interactive init call acts for: the user of the access token, in the app it was issued to. */
export interface InteractivePrincipal {
  userId: string;
  app: Application;
}

/**
 * A 401 with the management error object and a challenge naming the scheme (RFC 9110 §11.6.1). The
 * description is fixed text: it never repeats the caller's header.
 */
export function unauthorized(code: string, message: string): MgmtError {
  const err = new MgmtError(401, code, message);
  err.headers['WWW-Authenticate'] =
    code === 'unauthorized'
      ? `${INTERACTIVE_AUTH_SCHEME} realm="${REALM}"`
      : `${INTERACTIVE_AUTH_SCHEME} realm="${REALM}", error="${code}", error_description="${headerSafe(message)}"`;
  return err;
}

/** A quoted-string of a header carries printable ASCII only, without quotes or backslashes (RFC 9110 §5.6.4). */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]|["\\]/g, "'");

const SHAPE = 'the Authorization header must be "Sesame AccessToken <access_token>; <signature>"';

/**
 * Checks `Authorization: Sesame AccessToken <access_token>; <signature>` (ARCHITECTURE §7), top down: the
 * exact shape; the token, through Grants.IntrospectAccessToken (active, not expired, issued to a person by a
 * code or CIBA grant, not client_credentials); its app, which must be confidential and have a sealed secret;
 * then the HMAC-SHA256 of the token under that secret, compared in constant time. Every refusal is a 401.
 * Sets res.locals.interactive.
 */
export function interactiveAuth(deps: {
  grants: GrantsPeer;
  applications: ApplicationRepository;
  vault: ClientSecretVault;
  clock: Clock;
}): RequestHandler {
  return (req, res, next) => {
    const header = req.header('authorization');
    if (!header) return next(unauthorized('unauthorized', SHAPE.replace('must be', 'is required:')));
    const parsed = parseInteractiveAuthorization(header);
    if (!parsed) return next(unauthorized('invalid_request', SHAPE));
    check(parsed.accessToken, parsed.signature).then((principal) => {
      res.locals.interactive = principal;
      next();
    }, next);
  };

  async function check(accessToken: string, signature: string): Promise<InteractivePrincipal> {
    const token = await deps.grants.introspectAccessToken({ accessToken }).catch((err: unknown) => {
      throw peerUnavailable(err, 'token introspection');
    });
    if (!token.active || !token.tenantId || !token.clientId) {
      throw unauthorized('invalid_token', 'the access token is not valid (unknown, revoked or expired)');
    }
    if (token.expiresAt && token.expiresAt * 1000 <= deps.clock.now()) {
      throw unauthorized('invalid_token', 'the access token has expired');
    }
    if (!token.sub || token.credentialsId) {
      throw unauthorized('invalid_token', "the access token must come from a user's code exchange");
    }
    const app = await deps.applications.findByClientId(token.clientId);
    if (!app || app.tenantId !== token.tenantId) {
      throw unauthorized('invalid_token', 'the application of this access token no longer exists');
    }
    if (app.clientType !== 'confidential') {
      throw unauthorized('invalid_client', 'a public client cannot call interactive init: it has no secret');
    }
    const secret = app.clientSecretSealed && deps.vault.open(app.clientSecretSealed, app);
    if (!secret) {
      throw unauthorized(
        'invalid_client',
        'the server keeps no signing copy of the client secret of this application (created before copies were kept); an admin must rotate the secret (POST /api/v1/admin/tenants/{tenantId}/applications/{appId}/client-secret)',
      );
    }
    if (!safeEqual(interactiveSignature(accessToken, secret), signature)) {
      throw unauthorized(
        'invalid_signature',
        'the signature does not match the access token and client secret',
      );
    }
    return { userId: token.sub, app };
  }
}
