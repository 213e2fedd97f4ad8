import { type Clock, MgmtError, newId, normalizeIp, safeEqual } from '@sesame/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import type { AdminRepository } from '../directory/directory.repository';
import type { AdminKeyThrottle } from './admin-key-throttle';

/** Who made an admin call: recorded in every admin event (spec 2.5). */
export interface AdminContext {
  adminEmail: string;
  clientIp: string;
  sessionId: string;
}

/** The admin API's request headers (documented in the OpenAPI document and the CLI). */
export const adminHeaders = {
  email: 'x-sesame-admin-email',
  session: 'x-sesame-session-id',
} as const;

/** Lenient on purpose: local addresses such as admin@localhost are fine for a record of who acted. */
const email = z
  .string()
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+$/);
const sessionId = z.string().regex(/^[\w.:-]{1,128}$/);

export function adminOf(res: Response): AdminContext {
  const admin = res.locals.admin as AdminContext | undefined;
  if (!admin) throw new Error('admin route mounted without the admin-key middleware');
  return admin;
}

function unauthorized(message: string): MgmtError {
  const err = new MgmtError(401, 'invalid_admin_key', message);
  err.headers['WWW-Authenticate'] = 'Bearer realm="sesame-admin"';
  return err;
}

/**
 * Admin API authentication: `Authorization: Bearer <admin key>` compared in constant time with the bootstrap
 * key (none configured: every call is refused). A caller IP over its failure limit gets 429 first. The
 * admin's email comes from X-Sesame-Admin-Email (default: the configured one), the session from
 * X-Sesame-Session-Id (default: a new id for this call), the client IP from the request (trusted proxies).
 */
export function adminAuth(deps: {
  adminKey: string | undefined;
  defaultEmail: string;
  admins: AdminRepository;
  clock: Clock;
  throttle: AdminKeyThrottle;
}): RequestHandler {
  return (req, res, next) => {
    const ip = normalizeIp(req.ip ?? '');
    deps.throttle
      .assertAllowed(ip)
      .then(async () => {
        const match = /^Bearer (\S+)$/i.exec(req.header('authorization') ?? '');
        if (!match) throw unauthorized('an admin key is required: Authorization: Bearer <admin key>');
        if (!deps.adminKey || !safeEqual(match[1]!, deps.adminKey)) {
          await deps.throttle.recordFailure(ip);
          throw unauthorized('the admin key is not valid');
        }
      })
      .then(() => identify(req, res, next), next);
  };

  function identify(req: Request, res: Response, next: NextFunction): void {
    const fields: Record<string, string> = {};
    const givenEmail = req.header(adminHeaders.email);
    const givenSession = req.header(adminHeaders.session);
    if (givenEmail !== undefined && !email.safeParse(givenEmail).success) {
      fields[adminHeaders.email] = 'must be an email address';
    }
    if (givenSession !== undefined && !sessionId.safeParse(givenSession).success) {
      fields[adminHeaders.session] = 'must be 1 to 128 of A-Z a-z 0-9 _ . : -';
    }
    if (Object.keys(fields).length) {
      next(new MgmtError(400, 'invalid_request', 'invalid admin headers', fields));
      return;
    }

    const admin: AdminContext = {
      adminEmail: (givenEmail ?? deps.defaultEmail).toLowerCase(),
      clientIp: normalizeIp(req.ip ?? ''),
      sessionId: givenSession ?? newId(),
    };
    res.locals.admin = admin;
    deps.admins.touch(admin.adminEmail, deps.clock.now()).then(() => next(), next);
  }
}
