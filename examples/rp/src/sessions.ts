import { randomBytes } from 'node:crypto';

/** An authorization request on its way: what the callback must find again (PKCE, state, nonce). */
export interface PendingSignIn {
  kind: 'pending';
  codeVerifier: string;
  state: string;
  nonce: string;
}

/** A signed-in browser: the verified ID token, its claims and the userinfo answer. */
export interface SignedIn {
  kind: 'signed-in';
  idToken: string;
  claims: Record<string, unknown>;
  userinfo: Record<string, unknown> | { error: string };
  signedInAt: Date;
}

/** A session that ended: by the person's Sign out here, or by Sesame over the back channel. */
export interface SignedOut {
  kind: 'signed-out';
  by: 'sign-out' | 'back-channel';
  /** Sign out only: the state sent to the end-session endpoint, so the landing page can tell it came back. */
  state?: string;
  at: Date;
}

export type LocalSession = PendingSignIn | SignedIn | SignedOut;

/** At most this many sessions are kept (the oldest go first): a demo in memory, not a session store. */
const MAX_SESSIONS = 1_000;

/**
 * The sample app's own sessions, in memory, by a random id in a cookie. A real app would keep them where its
 * instances share them (Redis, a database): the back channel may reach any instance.
 */
export class SessionStore {
  private readonly sessions = new Map<string, LocalSession>();

  newId(): string {
    return randomBytes(24).toString('base64url');
  }

  get(id: string | undefined): LocalSession | undefined {
    return id ? this.sessions.get(id) : undefined;
  }

  set(id: string, session: LocalSession): void {
    this.sessions.delete(id);
    this.sessions.set(id, session);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
  }

  /**
   * Back-Channel Logout: ends every signed-in session of Sesame's session `sid` (the ID token's sid), or,
   * when the logout token names no sid, every one of the user `sub`. Answers how many ended.
   */
  endBySesameSession(logout: { sid?: string; sub?: string }, at = new Date()): number {
    let ended = 0;
    for (const [id, session] of this.sessions) {
      if (session.kind !== 'signed-in') continue;
      const matches = logout.sid ? session.claims.sid === logout.sid : session.claims.sub === logout.sub;
      if (!matches) continue;
      this.sessions.set(id, { kind: 'signed-out', by: 'back-channel', at });
      ended++;
    }
    return ended;
  }
}
