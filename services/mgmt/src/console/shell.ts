import type { Response } from 'express';
import { isAllowed } from '../admins/permissions';
import type { SignedIn } from './context';
import { type Shell, shellOf } from './render';

/** The shell (navigation, tenant switcher, Sign out) of a signed-in page, `current` its section's path. */
export function shellFor(s: SignedIn, current: string): Shell {
  return shellOf({
    email: s.session.email,
    role: s.account.role,
    tenantName: s.tenant.name,
    csrf: s.session.csrf,
    current,
    locale: s.locale,
    tenants: s.tenants,
    currentTenantId: s.tenant.tenantId,
    canCreateTenant: isAllowed(s.account.role, 'tenant.create'),
  });
}

/** The signed-in request a response belongs to, if the session middleware has run (error pages keep the shell). */
export const signedInIfAny = (res: Response): SignedIn | undefined =>
  res.locals.console as SignedIn | undefined;

/** The section of a console path (its first segment after /console/), for the navigation's current mark. */
export const sectionOfPath = (path: string): string => /^\/console\/([\w-]+)/.exec(path)?.[1] ?? '';
