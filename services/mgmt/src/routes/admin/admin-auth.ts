import { type Clock, MgmtError, newId, normalizeIp, safeEqual, sha256 } from '@sesame/platform';
import type { RequestHandler, Response } from 'express';
import { isApiToken } from '../../admins/api-tokens';
import { type BreakGlass, breakGlassActive } from '../../admins/break-glass';
import type { AdminPrincipal } from '../../admins/principal';
import type { AdminsRepositories } from '../../admins/repository';
import { type AdminContext, BOOTSTRAP_ADMIN } from '../../events/admin-events';
import type { AdminKeyThrottle } from './admin-key-throttle';

export function adminOf(res: Response): AdminContext {
  const admin = res.locals.admin as AdminContext | undefined;
  if (!admin) throw new Error('admin route mounted without the admin-auth middleware');
  return admin;
}

export function adminPrincipalOf(res: Response): AdminPrincipal {
  const principal = res.locals.adminPrincipal as AdminPrincipal | undefined;
  if (!principal) throw new Error('admin route mounted without the admin-auth middleware');
  return principal;
}

function unauthorized(message: string): MgmtError {
  const err = new MgmtError(401, 'invalid_admin_key', message);
  err.headers['WWW-Authenticate'] = 'Bearer realm="sesame-admin"';
  return err;
}

export interface AdminAuthDeps {
  /** The bootstrap key; unset: only personal API tokens are accepted. */
  adminKey: string | undefined;
  breakGlass: BreakGlass;
  admins: AdminsRepositories;
  clock: Clock;
  throttle: AdminKeyThrottle;
}

/**
 * Admin API authentication: `Authorization: Bearer <personal API token | bootstrap key>`.
 * - A personal API token (sesame_pat_…) is found by its sha256 hash; it must be live (not revoked, not
 *   expired) and its administrator must still exist. Events carry the administrator's email and the
 *   token's id as session id.
 * - The bootstrap key (compared in constant time) sets up an empty install; once any tenant has an Owner
 *   it is refused with 403 unless break-glass is on, and every such use is logged as a warning. Events
 *   carry `bootstrap-key` as the admin email and a new session id per call.
 * Who the caller is comes from the credential only: no header can name another administrator. The client
 * IP is the request's (trusted proxies). An IP over its failure limit gets 429 first.
 */
export function adminAuth(deps: AdminAuthDeps): RequestHandler {
  return (req, res, next) => {
    const ip = normalizeIp(req.ip ?? '');
    const failed = async (message: string) => {
      await deps.throttle.recordFailure(ip);
      return unauthorized(message);
    };
    const authenticate = async (): Promise<{ principal: AdminPrincipal; context: AdminContext }> => {
      await deps.throttle.assertAllowed(ip);
      const match = /^Bearer (\S+)$/i.exec(req.header('authorization') ?? '');
      if (!match) {
        throw unauthorized('a personal API token is required: Authorization: Bearer <token>');
      }
      const presented = match[1]!;
      const now = deps.clock.now();
      if (isApiToken(presented)) {
        const token = await deps.admins.tokens.findByHash(sha256(presented));
        if (!token || token.revokedAt !== undefined || token.expiresAt <= now) {
          throw await failed('the personal API token is not valid (unknown, revoked or expired)');
        }
        if (!(await deps.admins.accounts.get(token.tenantId, token.email))) {
          throw await failed('the personal API token is not valid (its administrator was removed)');
        }
        await deps.admins.tokens.touch(token.tokenId, now);
        return {
          principal: { kind: 'token', tokenId: token.tokenId, tenantId: token.tenantId, email: token.email },
          context: { adminEmail: token.email, clientIp: ip, sessionId: token.tokenId },
        };
      }
      if (!deps.adminKey || !safeEqual(presented, deps.adminKey)) {
        throw await failed('the admin key is not valid');
      }
      const breakGlass = breakGlassActive(deps.breakGlass, now);
      if (breakGlass) {
        req.log?.warn(
          { clientIp: ip, method: req.method, path: req.path },
          'BREAK-GLASS: the bootstrap admin key was used',
        );
      } else if (await deps.admins.accounts.anyOwner()) {
        throw new MgmtError(
          403,
          'forbidden',
          'the bootstrap key is refused once a tenant has an Owner; use a personal API token',
        );
      }
      return {
        principal: { kind: 'bootstrap', breakGlass },
        context: { adminEmail: BOOTSTRAP_ADMIN, clientIp: ip, sessionId: newId() },
      };
    };
    authenticate().then(({ principal, context }) => {
      res.locals.adminPrincipal = principal;
      res.locals.admin = context;
      next();
    }, next);
  };
}
