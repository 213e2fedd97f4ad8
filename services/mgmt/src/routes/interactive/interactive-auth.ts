import type { KeyValueStore } from '@sesame/kv';
import {
  type Clock,
  INTERACTIVE_AUTH_SCHEME,
  INTERACTIVE_INIT_PATH,
  INTERACTIVE_SIGNATURE_WINDOW_S,
  MgmtError,
  interactiveSignature,
  parseInteractiveAuthorization,
  safeEqual,
  sha256,
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

const SHAPE =
  'the Authorization header must be "Sesame AccessToken <access_token>; <signature>", the signature being t=<timestamp>,n=<nonce>,s=<hmac> (docs/interactive-init.md)';

/**
 * Checks `Authorization: Sesame AccessToken <access_token>; t=<timestamp>,n=<nonce>,s=<signature>`
 * (ARCHITECTURE §7, docs/interactive-init.md), top down: the exact shape; the token, through
 * Grants.IntrospectAccessToken (active, not expired, issued to a person by a code or CIBA grant, not
 * client_credentials); its app, which must be confidential and have a sealed secret; the timestamp, within
 * INTERACTIVE_SIGNATURE_WINDOW_S of the server's clock; the HMAC-SHA256 under that secret of the signing
 * string (method, path, timestamp, nonce, token, body hash), compared in constant time; then the nonce, taken
 * once per app (in the key-value store, for twice the window). Every refusal is a 401. Needs the raw body
 * (a Buffer) in req.body. Sets res.locals.interactive.
 */
export function interactiveAuth(deps: {
  grants: GrantsPeer;
  applications: ApplicationRepository;
  vault: ClientSecretVault;
  clock: Clock;
  nonces: KeyValueStore;
}): RequestHandler {
  return (req, res, next) => {
    const header = req.header('authorization');
    if (!header) return next(unauthorized('unauthorized', SHAPE.replace('must be', 'is required:')));
    const parsed = parseInteractiveAuthorization(header);
    if (!parsed) return next(unauthorized('invalid_request', SHAPE));
    const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    check({ ...parsed, method: req.method, body }).then((principal) => {
      res.locals.interactive = principal;
      next();
    }, next);
  };

  async function check(r: {
    accessToken: string;
    timestamp: number;
    nonce: string;
    signature: string;
    method: string;
    body: Buffer;
  }): Promise<InteractivePrincipal> {
    const { accessToken } = r;
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
    const skewS = Math.abs(Math.floor(deps.clock.now() / 1000) - r.timestamp);
    if (skewS > INTERACTIVE_SIGNATURE_WINDOW_S) {
      throw unauthorized(
        'expired_signature',
        `the signature's timestamp is more than ${INTERACTIVE_SIGNATURE_WINDOW_S} s from the server's time: sign each request when it is sent`,
      );
    }
    const expected = interactiveSignature(
      {
        method: r.method,
        path: INTERACTIVE_INIT_PATH,
        timestamp: r.timestamp,
        nonce: r.nonce,
        accessToken,
        body: r.body,
      },
      secret,
    );
    if (!safeEqual(expected, r.signature)) {
      throw unauthorized(
        'invalid_signature',
        'the signature does not match this request (method, path, timestamp, nonce, access token and body) under the client secret',
      );
    }
    const fresh = await deps.nonces.set(`interactive-nonce:${sha256(`${app.clientId}\n${r.nonce}`)}`, '1', {
      ttlMs: 2 * INTERACTIVE_SIGNATURE_WINDOW_S * 1000,
      onlyIfAbsent: true,
    });
    if (!fresh) {
      throw unauthorized(
        'replayed_signature',
        'this signature was used already: sign each request with a new nonce',
      );
    }
    return { userId: token.sub, app };
  }
}
