import type { AdminRole } from '../admins/model';
import { type AdminAction, permissions } from '../admins/permissions';
import { type ConsoleLocale, ct } from '../i18n';
import { ConsoleError } from './errors';

/**
 * What a 403 page says to a role that may not do `action`: that it may not, then which roles can (from THE
 * permission table) and what the action is in words ("Your role does not allow this. Only an Owner or
 * Administrator can manage applications."). The shell above says the reader's own role.
 */
export function forbiddenMessage(locale: ConsoleLocale, action: AdminAction): string {
  const roles = (permissions[action] as readonly AdminRole[]).join('.');
  const only = ct(locale, 'forbidden.only', {
    roles: ct(locale, `forbidden.roles.${roles}`),
    what: ct(locale, `can.${action}`),
  });
  return `${ct(locale, 'error.forbidden')} ${only}`;
}

/** The console's 403 for `action`: the message above on a page that keeps the navigation. */
export const forbidden = (s: { locale: ConsoleLocale }, action: AdminAction) =>
  new ConsoleError(403, 'error.forbiddenFor', {
    message: forbiddenMessage(s.locale, action),
  });
