import type { KeyValueStore } from '@sesame/kv';
import { type Clock, type PromiseClient, normalizeIp } from '@sesame/platform';
import type { activitylogs } from '@sesame/proto';
import type { Request, Response } from 'express';
import type { AdminAccount } from '../admins/model';
import type { AdminsRepositories } from '../admins/repository';
import type { DirectoryRepositories } from '../directory/directory.repository';
import type { Tenant } from '../directory/model';
import type { AdminActivityType, AdminEventPublisher } from '../events/admin-events';
import { type ConsoleLocale, consoleLocale } from '../i18n';
import type { GrantRevocationPeer, UsersPeer } from '../peers';
import type { ClientSecretVault } from '../secrets/client-secret-vault';
import type { SupportPort } from '../support/port';
import type { Invitations } from '../use-cases/administrators/invitations';
import type { ConsoleClient } from './oidc';
import type { ConsoleRenderer } from './render';
import type { ConsoleSession, SessionLimits } from './sessions';

/** What the console is built from (plain factories, so tests hand in fakes). */
export interface ConsoleDeps {
  dir: DirectoryRepositories;
  admins: AdminsRepositories;
  invitations: Invitations;
  events: AdminEventPublisher;
  clock: Clock;
  kv: KeyValueStore;
  secretVault: ClientSecretVault;
  /** Development only: a backchannelLogoutUri may be on a loopback host (use-cases/deps.ts). */
  allowLoopbackEndpoints?: boolean;
  client: ConsoleClient;
  /** https admin_url: the cookie is `__Host-` and Secure. */
  secureCookie: boolean;
  sessionLimits?: SessionLimits;
  /** Ensures the system tenant and the console client exist (before the first sign-in). */
  ensureSystemTenant: () => Promise<void>;
  /** activity-log's ActivityLogs: the Admin logs page reads through it. */
  activityLogs: PromiseClient<activitylogs.ActivityLogsServiceClient>;
  /** The token endpoint call (tests fake the provider). */
  fetch?: typeof fetch;
  /** auth's Users: blocking a person's device and removing them from applications (as the admin API does). */
  users: UsersPeer;
  /** token's Grants: a device block or a removal ends the person's refresh tokens. */
  grants: GrantRevocationPeer;
  /** Finding people and reading their flows; absent, the Users and Activity pages answer 503. */
  support?: SupportPort;
}

/** A signed-in request: the session, the administrator's account in the session's tenant, the tenant. */
export interface SignedIn {
  cookie: string;
  session: ConsoleSession;
  account: AdminAccount;
  tenant: Tenant;
  /** Every tenant this administrator has an account in (the switcher). */
  tenants: { tenantId: string; name: string }[];
  locale: ConsoleLocale;
}

export const localeOf = (req: Request): ConsoleLocale => consoleLocale(req.header('accept-language'));

export function signedInOf(res: Response): SignedIn {
  const s = res.locals.console as SignedIn | undefined;
  if (!s) throw new Error('console page mounted without the session middleware');
  return s;
}

/** Publishes an admin event as the signed-in administrator: their email, the session id, the caller IP. */
export function emitAs(deps: ConsoleDeps, req: Request, session: ConsoleSession) {
  return async (tenantId: string, activityType: AdminActivityType, data: Record<string, unknown>) => {
    await deps.events.publish(
      { adminEmail: session.email, sessionId: session.sessionId, clientIp: normalizeIp(req.ip ?? '') },
      tenantId,
      activityType,
      data,
    );
  };
}

export const cookieName = (secure: boolean) => (secure ? '__Host-sesame-console' : 'sesame-console');

/** The console's cookie values are base64url secrets (newSecret): anything else is not ours. */
const COOKIE_VALUE = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The value of the console cookie `name`, or undefined when absent or not a value the console sets (so a
 * malformed or forged cookie is simply no session, never an error).
 */
export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.header('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      const value = part.slice(at + 1).trim();
      return COOKIE_VALUE.test(value) ? value : undefined;
    }
  }
  return undefined;
}

export function setSessionCookie(res: Response, deps: ConsoleDeps, value: string, maxAgeMs: number): void {
  res.cookie(cookieName(deps.secureCookie), value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.secureCookie,
    path: '/',
    maxAge: maxAgeMs,
  });
}

export function clearSessionCookie(res: Response, deps: ConsoleDeps): void {
  res.clearCookie(cookieName(deps.secureCookie), {
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.secureCookie,
    path: '/',
  });
}
