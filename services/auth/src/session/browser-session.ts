import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { KeyValueStore } from '@sesame/kv';
import { parse, serialize } from 'cookie';
import type { Request, Response } from 'express';
import type { ProofMethod } from '../flow/flow';

/** Who signed in with a browser session, for single sign-on within the tenant. */
export interface SignedIn {
  userId: string;
  tenantId: string;
  method: ProofMethod;
  /** When they authenticated (auth_time of the tokens this session yields), epoch ms. */
  authTime: number;
}

/** A browser's session with auth: its CSRF secret and, once someone signed in, who and when. */
export interface BrowserSession {
  /** SHA-256 of the session id: the KV key and what flows bind to. The id itself only lives in the cookie. */
  key: string;
  csrf: string;
  createdAt: number;
  /** Set at sign-in (the session id rotates then). */
  signedIn?: SignedIn;
}

export interface SessionOptions {
  ttlMs: number;
  /** auth_url is https: cookies get Secure and the __Host- prefix (no Domain, Path=/). */
  secure: boolean;
  now?: () => number;
}

const hash = (v: string) => createHash('sha256').update(v).digest('base64url');
const kvKey = (key: string) => `session:${key}`;
/** Browsers keep a cookie at most 400 days (RFC 6265bis); the device id lives that long. */
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 3600;

/**
 * The browser session cookie (HttpOnly, SameSite=Lax, `__Host-` on https; ARCHITECTURE §8), its CSRF token,
 * and the long-lived device cookie that names a browser across sessions.
 */
export class SessionManager {
  private readonly now: () => number;
  readonly sessionCookie: string;
  readonly deviceCookie: string;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly opts: SessionOptions,
  ) {
    this.now = opts.now ?? Date.now;
    const prefix = opts.secure ? '__Host-' : '';
    this.sessionCookie = `${prefix}sesame_session`;
    this.deviceCookie = `${prefix}sesame_device`;
  }

  private cookies(req: Request): Record<string, string | undefined> {
    return parse(req.headers.cookie ?? '');
  }

  private setCookie(res: Response, name: string, value: string, maxAgeS: number): void {
    res.append(
      'Set-Cookie',
      serialize(name, value, {
        httpOnly: true,
        sameSite: 'lax',
        secure: this.opts.secure,
        path: '/',
        maxAge: maxAgeS,
      }),
    );
  }

  async load(req: Request): Promise<BrowserSession | undefined> {
    const sid = this.cookies(req)[this.sessionCookie];
    if (!sid || !/^[\w-]{43}$/.test(sid)) return undefined;
    const raw = await this.kv.get(kvKey(hash(sid)));
    return raw ? { ...(JSON.parse(raw) as Omit<BrowserSession, 'key'>), key: hash(sid) } : undefined;
  }

  private async issue(res: Response, data: Omit<BrowserSession, 'key'>): Promise<BrowserSession> {
    const sid = randomBytes(32).toString('base64url');
    const key = hash(sid);
    await this.kv.set(kvKey(key), JSON.stringify(data), { ttlMs: this.opts.ttlMs });
    this.setCookie(res, this.sessionCookie, sid, Math.floor(this.opts.ttlMs / 1000));
    return { ...data, key };
  }

  /** The browser's session, created (with a cookie) when it has none. */
  async ensure(req: Request, res: Response): Promise<BrowserSession> {
    return (
      (await this.load(req)) ??
      this.issue(res, { csrf: randomBytes(32).toString('base64url'), createdAt: this.now() })
    );
  }

  /** A new session id (and CSRF token) at sign-in, so a session id planted before it is worth nothing. */
  async rotate(res: Response, old: BrowserSession, signedIn: SignedIn): Promise<BrowserSession> {
    await this.kv.del(kvKey(old.key));
    return this.issue(res, {
      csrf: randomBytes(32).toString('base64url'),
      createdAt: this.now(),
      signedIn,
    });
  }

  /** Constant-time comparison of a form's CSRF token with the session's. */
  csrfMatches(session: BrowserSession, token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const a = Buffer.from(session.csrf);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** The browser's device id, issued (as a long-lived cookie) when it has none. */
  deviceId(req: Request, res: Response): string {
    const current = this.cookies(req)[this.deviceCookie];
    if (current && /^[0-9a-f-]{36}$/.test(current)) return current;
    const id = randomUUID();
    this.setCookie(res, this.deviceCookie, id, DEVICE_COOKIE_MAX_AGE_S);
    return id;
  }
}
