import {
  DEFAULT_REFRESH_ABSOLUTE_LIFETIME_S,
  DEFAULT_REFRESH_IDLE_LIFETIME_S,
  OFFLINE_ACCESS_SCOPE,
} from '@sesame/oauth';
import type { Client } from '../directory/directory';

/** The app's refresh token lifetimes in ms, or null when it does not allow refresh tokens. */
export function refreshLifetimesOf(client: Client): { absoluteMs: number; idleMs: number } | null {
  const settings = client.refreshTokens;
  if (!settings?.enabled) return null;
  const absoluteS = settings.absoluteLifetimeS || DEFAULT_REFRESH_ABSOLUTE_LIFETIME_S;
  const idleS = Math.min(settings.idleLifetimeS || DEFAULT_REFRESH_IDLE_LIFETIME_S, absoluteS);
  return { absoluteMs: absoluteS * 1000, idleMs: idleS * 1000 };
}

/**
 * The scope a grant gets (RFC 6749 3.3: the token response's scope says it): the authorized scope, less
 * offline_access unless a refresh token will be issued with it (the code grant of an app allowing them).
 */
export function grantedScope(scope: string, refreshAllowed: boolean): string {
  if (refreshAllowed) return scope;
  return scope
    .split(' ')
    .filter((s) => s && s !== OFFLINE_ACCESS_SCOPE)
    .join(' ');
}

export function includesOfflineAccess(scope: string): boolean {
  return scope.split(' ').includes(OFFLINE_ACCESS_SCOPE);
}
