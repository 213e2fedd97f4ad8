import { MgmtError } from '@sesame/platform';
import type { AdminRole } from './model';

const everyone: readonly AdminRole[] = ['owner', 'administrator', 'support'];
const managers: readonly AdminRole[] = ['owner', 'administrator'];
const owners: readonly AdminRole[] = ['owner'];

/**
 * THE table of who may do what: every admin API action (and console page action) names one of these and
 * is checked on the server against the caller's role in the tenant it acts on. Owner: everything.
 * Administrator: everything but administrators and removing the tenant. Support: read-only (users,
 * activity, admin logs), may block and unblock devices, sign a person out everywhere and export events.
 */
export const permissions = {
  'tenant.read': everyone,
  'tenant.create': owners,
  'tenant.update': managers,
  'tenant.remove': owners,
  'application.read': managers,
  'application.write': managers,
  'credentials.read': managers,
  'credentials.write': managers,
  'riskRule.read': managers,
  'riskRule.write': managers,
  'user.invite': managers,
  'branding.read': managers,
  'branding.write': managers,
  /** Finding a person and reading their devices, memberships and sign-ins (the console's Users page). */
  'users.read': everyone,
  /** Removing a person from an application or the tenant (spec 4.8's DELETE users semantics). */
  'user.remove': managers,
  /** Reading the tenant's sign-in flows (the console's Activity page, the admin API's flows). */
  'activity.read': everyone,
  'device.block': everyone,
  'events.export': everyone,
  'adminLogs.read': everyone,
  'keys.rotate': owners,
  'administrators.read': managers,
  'administrators.invite': owners,
  'administrators.remove': owners,
  'administrators.changeRole': owners,
  /** Creating, listing and revoking one's own personal API tokens. */
  'ownTokens.manage': everyone,
  /** Listing and revoking every administrator's personal API tokens of the tenant. */
  'tokens.manageAll': owners,
  /** Erasing the sign-in attempts of a typed address (records of flows the address was typed in). */
  'attempts.erase': managers,
  /** Ending every signed-in session of a person and their refresh tokens (issue 38). */
  'user.signOutEverywhere': everyone,
  /** Disabling a person in the tenant (no sign-in to any of its apps) and enabling them again (issue 38). */
  'user.disable': managers,
  /** Removing one of a person's passkeys (issue 38): they sign in by email and make a new one. */
  'passkey.remove': everyone,
  /** Forgetting a person's phone number (issue 38). */
  'phone.remove': managers,
  /** Adding a person: sending them a registration link for an application (issue 38). */
  'person.add': managers,
} as const satisfies Record<string, readonly AdminRole[]>;
export type AdminAction = keyof typeof permissions;

export function isAllowed(role: AdminRole, action: AdminAction): boolean {
  return (permissions[action] as readonly AdminRole[]).includes(role);
}

/** 403 forbidden naming the action, before anything is read or written. */
export function assertAllowed(role: AdminRole, action: AdminAction): void {
  if (!isAllowed(role, action)) {
    throw new MgmtError(403, 'forbidden', `the ${role} role may not do ${action}`);
  }
}
