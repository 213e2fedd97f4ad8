import type { ServiceMetrics } from '@sesame/platform';
import type { TokenDeps } from '../../deps';
import type { AccessTokenGrant } from '../../grants/types';
import { jsonEndpoint } from '../http/json-endpoint';
import { findCallersToken } from './callers-token';
import { certificateConfirmation, checkCertificateBinding } from './certificate-bound';
import type { PresentedToken } from './find-token';

const INACTIVE = { status: 200, body: { active: false } };

/**
 * POST {auth_url}/introspect (RFC 7662): an application introspects its own tokens, API credentials any
 * token of their tenant. Every other token, and every unknown, expired, rotated or revoked one, is
 * `{"active":false}` alike (2.2): the endpoint tells nobody whether another client's token exists.
 */
export function introspectEndpoint(deps: TokenDeps, metrics?: ServiceMetrics) {
  return jsonEndpoint(
    deps,
    { method: 'POST', path: '/introspect' },
    async (x) => {
      // A bound token introspected by its own app must come with its certificate (RFC 8705 3); API
      // credentials (a resource server) get cnf to hold their caller's certificate against.
      const found = await findCallersToken(
        deps,
        x,
        { allowPublic: false, allowApiCredentials: true },
        (caller, token) => {
          if (caller.kind === 'app' && token.kind === 'access_token')
            checkCertificateBinding(token.grant, x.certificate());
        },
      );
      if (!found) return INACTIVE;
      return { status: 200, body: describe(found, deps.config.SESAME_AUTH_URL) };
    },
    metrics,
  );
}

/** The members every active token's answer starts with (RFC 7662 §2.2). */
const activeToken = (token: { scope: string; clientId: string }, tokenType: string) => ({
  active: true,
  scope: token.scope,
  client_id: token.clientId,
  token_type: tokenType,
});

function describe(found: PresentedToken, issuer: string): Record<string, unknown> {
  if (found.kind === 'access_token') {
    const { grant } = found;
    return {
      ...activeToken(grant, grant.jkt ? 'DPoP' : 'Bearer'),
      exp: grant.expiresAt,
      ...(grant.sub ? { sub: grant.sub } : {}),
      iss: issuer,
      // RFC 9449 §6.2 and RFC 8705 3.2: the key (cnf.jkt) or certificate (cnf.x5t#S256) it is bound to.
      ...tokenConfirmation(grant),
    };
  }
  const { family } = found;
  return {
    ...activeToken(family, 'refresh_token'),
    exp: Math.floor(Math.min(family.absoluteExpiresAt, family.lastUsedAt + family.idleLifetimeMs) / 1000),
    iat: Math.floor(family.lastUsedAt / 1000),
    sub: family.sub,
    iss: issuer,
    ...(family.jkt ? { cnf: { jkt: family.jkt } } : {}),
  };
}

/** One cnf member for both bindings a token can carry (DPoP's jkt, mutual TLS's x5t#S256). */
function tokenConfirmation(grant: AccessTokenGrant): { cnf?: Record<string, string> } {
  const cnf = { ...(grant.jkt ? { jkt: grant.jkt } : {}), ...certificateConfirmation(grant).cnf };
  return Object.keys(cnf).length ? { cnf } : {};
}
