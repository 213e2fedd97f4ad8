import { randomBytes } from 'node:crypto';
import type { SignedIn } from './browser-session';

/** A session names at most this many apps for Back-Channel Logout (the oldest drop out first). */
export const MAX_SESSION_CLIENTS = 50;

/**
 * Who the browser session names after a sign-in for `clientId`: when the same person of the same tenant was
 * already signed in (single sign-on, or a new proof of the same person), the session keeps its `sid` and
 * adds the app to the ones it took part in; anyone else starts a new sid (128 random bits) with this app alone.
 */
export function signedInAfter(
  previous: SignedIn | undefined,
  next: Pick<SignedIn, 'userId' | 'tenantId' | 'method' | 'authTime'>,
  clientId: string,
): SignedIn {
  const same =
    previous?.sid !== undefined && previous.userId === next.userId && previous.tenantId === next.tenantId;
  const clients = same ? (previous.clients ?? []).filter((c) => c !== clientId) : [];
  clients.push(clientId);
  return {
    ...next,
    sid: same ? previous.sid! : randomBytes(16).toString('base64url'),
    clients: clients.slice(-MAX_SESSION_CLIENTS),
  };
}

/**
 * Who the browser session names after a sign-in that gave this browser no code (a CIBA approval or a QR
 * sign-in on the phone): the same person keeps the session's sid and apps, so a later logout still reaches
 * them; anyone else starts without any.
 */
export function signedInKeeping(
  previous: SignedIn | undefined,
  next: Pick<SignedIn, 'userId' | 'tenantId' | 'method' | 'authTime'>,
): SignedIn {
  const same =
    previous?.sid !== undefined && previous.userId === next.userId && previous.tenantId === next.tenantId;
  return same ? { ...next, sid: previous.sid!, clients: [...(previous.clients ?? [])] } : { ...next };
}
