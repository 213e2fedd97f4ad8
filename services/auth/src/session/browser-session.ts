// Over 300 lines on purpose: the one SessionManager for browser sessions (cookie, record, sid and person
// indexes, rotation, sign-out); its methods share the key layout and must change together.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { KeyValueStore } from '@sesame/kv';
import { sha256, sha256Bytes } from '@sesame/platform';
import { parse, serialize } from 'cookie';
import type { Request, Response } from 'express';
import type { DeviceFacts } from '../devices/user-agent';

/** How the person proved who they are; `fido2`: a passkey with user verification (amr ts.svc.mfca). */
export type ProofMethod = 'email_otp' | 'email_magic_link' | 'fido2';

/** Who signed in with a browser session, for single sign-on within the tenant. */
export interface SignedIn {
  userId: string;
  tenantId: string;
  method: ProofMethod;
  /** When they authenticated (auth_time of the tokens this session yields), epoch ms. */
  authTime: number;
  /**
   * The session's id as RPs see it: `sid` in ID tokens and logout tokens (Back-Channel Logout 1.0). Random,
   * never the cookie's value; kept while the same person stays signed in (session/sign-in-session.ts).
   */
  sid?: string;
  /** client_ids that got a code from this session: the apps Back-Channel Logout tells when it ends. */
  clients?: string[];
}

/**
 * A browser's session with auth: its CSRF secret and, once someone signed in, who and when. A session nobody
 * signed in to yet is anonymous: nothing of it is stored (its key and CSRF secret follow from the cookie's id,
 * see anonymousSession), so a sign-in start that never goes further keeps no session on the server.
 */
export interface BrowserSession {
  /** SHA-256 of the session id: the KV key and what flows bind to. The id itself only lives in the cookie. */
  key: string;
  csrf: string;
  /** When the stored record was written, epoch ms; absent for an anonymous session, which is never stored. */
  createdAt?: number;
  /** Set at sign-in (the session id rotates then). */
  signedIn?: SignedIn;
  /** Where and when the signed-in session was used: support's list of a person's sessions (issue 38). */
  seen?: SessionSeen;
}

/** The browser and address of a signed-in session's latest sign-in, its first sign-in and its latest. */
export interface SessionSeen {
  device: DeviceFacts;
  clientIp: string;
  /** Epoch ms: the session's first sign-in (kept while the same person stays signed in) and its latest. */
  startedAt: number;
  lastSeenAt: number;
}

export interface SessionOptions {
  ttlMs: number;
  /** auth_url is https: cookies get Secure and the __Host- prefix (no Domain, Path=/). */
  secure: boolean;
  now?: () => number;
}

/** The well-formed session id: 32 bytes in base64url (the cookie's value). */
const SESSION_ID = /^[\w-]{43}$/;

/**
 * Anonymous session ids: 24 random bytes (192 bits) and 8 bytes of their SHA-256 under this label. The tag is
 * not a secret (anyone can mint an anonymous id, as anyone can GET /authorize for one); it tells an id minted
 * anonymous apart from a signed-in session's fully random id (a chance of 2^-64), so a signed-in session that
 * ended (logout, Sign out everywhere, expiry) never comes back as an anonymous one with the same key.
 */
const ANONYMOUS_TAG = Buffer.from('sesame anonymous browser session\n');
const ANONYMOUS_RANDOM_BYTES = 24;
const anonymousTag = (random: Buffer) =>
  sha256Bytes(Buffer.concat([ANONYMOUS_TAG, random])).subarray(0, 32 - ANONYMOUS_RANDOM_BYTES);
/** An anonymous session's CSRF secret: a hash of its id, which only the browser's HttpOnly cookie holds. */
const anonymousCsrf = (sid: string) => sha256(`sesame anonymous session csrf\n${sid}`);

/** The anonymous session an id names, when it was minted as one (startSession); undefined for any other id. */
function anonymousSession(sid: string): BrowserSession | undefined {
  const bytes = Buffer.from(sid, 'base64url');
  if (bytes.length !== 32) return undefined;
  const tag = anonymousTag(bytes.subarray(0, ANONYMOUS_RANDOM_BYTES));
  if (!timingSafeEqual(tag, bytes.subarray(ANONYMOUS_RANDOM_BYTES))) return undefined;
  return { key: sha256(sid), csrf: anonymousCsrf(sid) };
}
const kvKey = (key: string) => `session:${key}`;
/**
 * The index from a signed-in session's sid (as ID tokens carry it) to its KV key, so a logout by id_token_hint
 * finds the session without the browser's cookie. Written with the session and living as long as it.
 */
const sidKey = (sid: string) => `session-sid:${sha256(sid)}`;
/**
 * The per-person index of signed-in sessions (support lists them and signs the person out everywhere): a
 * schedule of session keys at their expiry, per tenant and person. It lives as long as its newest session, and
 * each sign-in drops members already expired, so it stays as small as the person's live sessions.
 */
const userKey = (tenantId: string, userId: string) => `session-user:${sha256(`${tenantId}\n${userId}`)}`;
/** Expired members dropped per sign-in, and the most sessions support reads of one person at once. */
const PRUNE_PER_SIGN_IN = 16;
export const MAX_USER_SESSIONS = 200;
/** Browsers keep a cookie at most 400 days (RFC 6265bis); the device id lives that long. */
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 3600;

/**
 * CSPRNG bytes drawn 4 KB at a time, as node's randomUUID draws its entropy: one call into the generator per
 * 170 sessions instead of one per session. Every byte is handed out once; a refill allocates a new buffer, so
 * bytes handed out earlier never change.
 */
class RandomPool {
  private buffer = Buffer.alloc(0);
  private offset = 0;

  take(size: number): Buffer {
    if (this.offset + size > this.buffer.length) {
      this.buffer = randomBytes(4096);
      this.offset = 0;
    }
    const bytes = this.buffer.subarray(this.offset, this.offset + size);
    this.offset += size;
    return bytes;
  }
}

/** A Set-Cookie header value and what it carries, for handlers that write headers themselves. */
export interface IssuedCookie<T> {
  value: T;
  setCookie: string;
}

/**
 * The browser session cookie (HttpOnly, SameSite=Lax, `__Host-` on https; ARCHITECTURE §8), its CSRF token,
 * and the long-lived device cookie that names a browser across sessions. Express routes use ensure/deviceId;
 * the raw GET /authorize (journeys/sign-in/authorize-fast.ts) uses startSession/newDevice and writes the headers itself.
 *
 * Over 300 lines as one file on purpose: the cookie, the session record and its two indexes (by sid, by person:
 * issue 38's sessions and Sign out everywhere) are written and deleted together here, so the invariants between
 * them live in one place; splitting the indexes out would spread each write over two files.
 */
export class SessionManager {
  private readonly now: () => number;
  readonly sessionCookie: string;
  readonly deviceCookie: string;
  /** Everything after `name=value` of each cookie, serialized once: the attributes never change. */
  private readonly sessionAttributes: string;
  private readonly deviceAttributes: string;
  private readonly random = new RandomPool();

  constructor(
    private readonly kv: KeyValueStore,
    private readonly opts: SessionOptions,
  ) {
    this.now = opts.now ?? Date.now;
    const prefix = opts.secure ? '__Host-' : '';
    this.sessionCookie = `${prefix}sesame_session`;
    this.deviceCookie = `${prefix}sesame_device`;
    this.sessionAttributes = this.attributes(Math.floor(opts.ttlMs / 1000));
    this.deviceAttributes = this.attributes(DEVICE_COOKIE_MAX_AGE_S);
  }

  private attributes(maxAgeS: number): string {
    const sample = serialize('n', 'v', {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.opts.secure,
      path: '/',
      maxAge: maxAgeS,
    });
    return sample.slice('n=v'.length);
  }

  /** Session ids (base64url) and device ids (UUIDs) need no cookie encoding: `name=value` as is. */
  private setCookie(res: Response, setCookie: string): void {
    res.append('Set-Cookie', setCookie);
  }

  /** The cookies of a Cookie header (cookie.parse: of a repeated name, the first one counts). */
  cookiesOf(header: string | undefined): Record<string, string | undefined> {
    return header ? parse(header) : {};
  }

  /**
   * The browser's session: an anonymous one straight from its cookie (nothing stored), a signed-in one (or an
   * anonymous one stored before anonymous sessions stopped being stored) from the KV.
   */
  async load(req: Request): Promise<BrowserSession | undefined> {
    const sid = this.cookiesOf(req.headers.cookie)[this.sessionCookie];
    if (!sid || !SESSION_ID.test(sid)) return undefined;
    const anonymous = anonymousSession(sid);
    if (anonymous) return anonymous;
    const key = sha256(sid);
    const raw = await this.kv.get(kvKey(key));
    return raw ? { ...(JSON.parse(raw) as Omit<BrowserSession, 'key'>), key } : undefined;
  }

  private async issue(data: Omit<BrowserSession, 'key'>, sid: string): Promise<IssuedCookie<BrowserSession>> {
    const key = sha256(sid);
    // The record, its sid index and the person's index are independent writes: started together, so the
    // embedded engine commits them together (one KV turn) instead of one after the other.
    await Promise.all([
      this.kv.set(kvKey(key), JSON.stringify(data), { ttlMs: this.opts.ttlMs }),
      // A sign-in keeps the sid across rotations: the index moves to the new key (the old one is deleted).
      data.signedIn?.sid && this.kv.set(sidKey(data.signedIn.sid), key, { ttlMs: this.opts.ttlMs }),
      data.signedIn && this.indexForUser(data.signedIn, key),
    ]);
    return {
      value: { ...data, key },
      setCookie: `${this.sessionCookie}=${sid}${this.sessionAttributes}`,
    };
  }

  /**
   * A new anonymous session for a browser that has none; the caller sends `setCookie`. Nothing is stored: its
   * id (192 random bits and the anonymous tag) is all there is until someone signs in (rotate), and its CSRF
   * secret is a hash of that id. A sign-in start that never goes further costs no session record.
   */
  startSession(): IssuedCookie<BrowserSession> {
    const random = this.random.take(ANONYMOUS_RANDOM_BYTES);
    const sid = Buffer.concat([random, anonymousTag(random)]).toString('base64url');
    return {
      value: { key: sha256(sid), csrf: anonymousCsrf(sid) },
      setCookie: `${this.sessionCookie}=${sid}${this.sessionAttributes}`,
    };
  }

  /** The browser's session, created (with a cookie) when it has none. */
  async ensure(req: Request, res: Response): Promise<BrowserSession> {
    const current = await this.load(req);
    if (current) return current;
    const started = this.startSession();
    this.setCookie(res, started.setCookie);
    return started.value;
  }

  /** Adds a signed-in session to its person's index, dropping members already expired. */
  private async indexForUser(signedIn: SignedIn, key: string): Promise<void> {
    const index = userKey(signedIn.tenantId, signedIn.userId);
    const now = this.now();
    const [expired] = await Promise.all([
      this.kv.due(index, now, PRUNE_PER_SIGN_IN),
      this.kv.schedule(index, key, now + this.opts.ttlMs, this.opts.ttlMs),
    ]);
    await Promise.all(expired.map((member) => this.kv.unschedule(index, member)));
  }

  /**
   * A new session id (and CSRF token) at sign-in, so a session id planted before it is worth nothing. `where`
   * (the browser and address of this sign-in) is what support sees of the session.
   */
  async rotate(
    res: Response,
    old: BrowserSession,
    signedIn: SignedIn,
    where?: Pick<SessionSeen, 'device' | 'clientIp'>,
  ): Promise<BrowserSession> {
    const previous = old.signedIn;
    // The old session goes while the new one is written (one engine turn); the new cookie is sent only when
    // both succeeded.
    const dropOld = Promise.all([
      // An anonymous session has no record (createdAt is a stored record's).
      old.createdAt !== undefined && this.kv.del(kvKey(old.key)),
      previous ? this.unindex(previous, old.key) : undefined,
    ]);
    const now = this.now();
    const samePerson = previous?.sid !== undefined && previous.sid === signedIn.sid;
    const seen: SessionSeen | undefined = where && {
      ...where,
      startedAt: samePerson ? (old.seen?.startedAt ?? old.createdAt ?? now) : now,
      lastSeenAt: now,
    };
    const [, issued] = await Promise.all([
      dropOld,
      this.issue(
        { csrf: randomBytes(32).toString('base64url'), createdAt: now, signedIn, ...(seen ? { seen } : {}) },
        randomBytes(32).toString('base64url'),
      ),
    ]);
    this.setCookie(res, issued.setCookie);
    return issued.value;
  }

  /**
   * Ends the browser's session (RP-Initiated Logout): its record is deleted, so the cookie names nothing any
   * more, and the browser is told to drop the cookie. The next /authorize starts a new session (sign-in page).
   * True when this call ended it (false when a concurrent logout did first).
   */
  async end(res: Response, session: BrowserSession): Promise<boolean> {
    const ended = await this.endStored(session);
    res.append(
      'Set-Cookie',
      serialize(this.sessionCookie, '', {
        httpOnly: true,
        sameSite: 'lax',
        secure: this.opts.secure,
        path: '/',
        maxAge: 0,
      }),
    );
    return ended;
  }

  /**
   * The signed-in session whose sid is `sid` (logout by id_token_hint, with or without the browser's cookie):
   * found through the sid index, and only while the stored session still names that sid.
   */
  async findBySid(sid: string): Promise<BrowserSession | undefined> {
    const key = await this.kv.get(sidKey(sid));
    if (!key) return undefined;
    const raw = await this.kv.get(kvKey(key));
    if (!raw) return undefined;
    const session: BrowserSession = { ...(JSON.parse(raw) as Omit<BrowserSession, 'key'>), key };
    return session.signedIn?.sid === sid ? session : undefined;
  }

  /**
   * Deletes a session's record and its sid index (when the index still points at it), so neither its cookie
   * nor its sid finds it any more; true when this call deleted the record. The caller clears the cookie when
   * the request is the browser's own (end).
   */
  async endStored(session: BrowserSession): Promise<boolean> {
    // take, not del: of two logouts ending the same session at once, one ends it (and notifies the apps).
    const ended = (await this.kv.take(kvKey(session.key))) !== null;
    const sid = session.signedIn?.sid;
    if (sid && (await this.kv.get(sidKey(sid))) === session.key) await this.kv.del(sidKey(sid));
    if (session.signedIn) await this.unindex(session.signedIn, session.key);
    return ended;
  }

  private unindex(signedIn: SignedIn, key: string): Promise<void> {
    return this.kv.unschedule(userKey(signedIn.tenantId, signedIn.userId), key);
  }

  /**
   * The person's live signed-in sessions in the tenant (at most MAX_USER_SESSIONS), newest sign-in first:
   * read through the per-person index in two round trips, whatever their number.
   */
  async listForUser(tenantId: string, userId: string): Promise<BrowserSession[]> {
    const keys = await this.kv.due(userKey(tenantId, userId), Number.MAX_SAFE_INTEGER, MAX_USER_SESSIONS);
    if (keys.length === 0) return [];
    const raws = await this.kv.getMany(keys.map(kvKey));
    const live = keys.flatMap((key, i) => {
      const raw = raws[i];
      if (!raw) return [];
      const session: BrowserSession = { ...(JSON.parse(raw) as Omit<BrowserSession, 'key'>), key };
      const who = session.signedIn;
      return who && who.tenantId === tenantId && who.userId === userId ? [session] : [];
    });
    return live.sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0));
  }

  /** Constant-time comparison of a form's CSRF token with the session's. */
  csrfMatches(session: BrowserSession, token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const a = Buffer.from(session.csrf);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** The device id a request's cookies carry, when it is well-formed. */
  knownDevice(cookies: Record<string, string | undefined>): string | undefined {
    const current = cookies[this.deviceCookie];
    return current && /^[0-9a-f-]{36}$/.test(current) ? current : undefined;
  }

  /** A new device id and its long-lived cookie. */
  newDevice(): IssuedCookie<string> {
    const id = randomUUID();
    return { value: id, setCookie: `${this.deviceCookie}=${id}${this.deviceAttributes}` };
  }

  /** The browser's device id, issued (as a long-lived cookie) when it has none. */
  deviceId(req: Request, res: Response): string {
    const known = this.knownDevice(this.cookiesOf(req.headers.cookie));
    if (known) return known;
    const issued = this.newDevice();
    this.setCookie(res, issued.setCookie);
    return issued.value;
  }
}
