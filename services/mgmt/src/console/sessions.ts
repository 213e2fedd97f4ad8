import type { KeyValueStore } from '@sesame/kv';
import { type Clock, newId, newSecret, sha256 } from '@sesame/platform';

/** A signed-in administrator's console session (the cookie holds a secret; the store holds its hash). */
export interface ConsoleSession {
  /** The session's public id: the sessionId of the admin events it causes (never the cookie value). */
  sessionId: string;
  email: string;
  /** The tenant being administered (the switcher changes it). */
  tenantId: string;
  /** When the administrator last proved who they are (sign-in or step-up): the step-up table (admins/step-up.ts) says which actions need it recent. */
  signedInAt: number;
  createdAt: number;
  lastSeenAt: number;
  /** The CSRF token of every form of this session. */
  csrf: string;
  /**
   * The ID token of the sign-in: the id_token_hint with which sign-out ends the Sesame session too. Here,
   * server-side, only (never in a cookie or a page).
   */
  idToken?: string;
}

export interface SessionLimits {
  idleMs: number;
  absoluteMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 };

const key = (cookie: string) => `console:session:${sha256(cookie)}`;

/**
 * Console sessions in the KV store (Redis: every mgmt pod sees them). A new cookie value at every sign-in
 * (rotation); the record expires at the absolute lifetime, and a session idle for longer than the idle
 * timeout is ended when next seen.
 */
export class ConsoleSessions {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly clock: Clock,
    private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
  ) {}

  /** Starts a session; returns the cookie value (shown to the browser only) and the session. */
  async create(
    email: string,
    tenantId: string,
    /** When the person last authenticated at Sesame (the ID token's auth_time), not merely now. */
    signedInAt?: number,
    idToken?: string,
  ): Promise<{ cookie: string; session: ConsoleSession }> {
    const now = this.clock.now();
    const cookie = newSecret();
    const session: ConsoleSession = {
      sessionId: newId(),
      email,
      tenantId,
      signedInAt: Math.min(signedInAt ?? now, now),
      createdAt: now,
      lastSeenAt: now,
      csrf: newSecret(),
      ...(idToken ? { idToken } : {}),
    };
    await this.kv.set(key(cookie), JSON.stringify(session), { ttlMs: this.limits.absoluteMs });
    return { cookie, session };
  }

  /** The live session of a cookie value, its idle time reset; undefined (and ended) when idle too long. */
  async get(cookie: string | undefined): Promise<ConsoleSession | undefined> {
    return (await this.look(cookie)).live;
  }

  /**
   * Like get, and also says which session ended because it was found idle or too old (`ended`): the caller
   * records that the administrator left its tenant (administrator_leave_tenant, isTenantSwitch false).
   */
  async look(cookie: string | undefined): Promise<{ live?: ConsoleSession; ended?: ConsoleSession }> {
    if (!cookie) return {};
    const raw = await this.kv.get(key(cookie));
    if (!raw) return {};
    const session = JSON.parse(raw) as ConsoleSession;
    const now = this.clock.now();
    if (now - session.lastSeenAt > this.limits.idleMs || now - session.createdAt > this.limits.absoluteMs) {
      // take, not del: of two requests racing over the same idle session, only the one that removes the
      // record reports it ended, so its end is recorded once.
      return (await this.kv.take(key(cookie))) ? { ended: session } : {};
    }
    session.lastSeenAt = now;
    await this.kv.replace(key(cookie), JSON.stringify(session));
    return { live: session };
  }

  /** Changes what a live session records (tenant switch); keeps its lifetime. */
  async update(cookie: string, session: ConsoleSession): Promise<void> {
    await this.kv.replace(key(cookie), JSON.stringify(session));
  }

  async end(cookie: string | undefined): Promise<void> {
    if (cookie) await this.kv.del(key(cookie));
  }
}
