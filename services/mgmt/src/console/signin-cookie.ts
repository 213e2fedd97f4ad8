import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { newSecret, safeEqual } from '@sesame/platform';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { SignInRequest } from './oidc';

/**
 * Sign-ins in progress, kept in the browser that started them instead of on the server: GET /console/signin
 * stores nothing (an anonymous request costs no memory), and /console/callback accepts only a state this
 * browser's cookie carries (login CSRF: a callback URL made in another browser does not sign this one in).
 *
 * The cookie is AES-256-GCM under a key derived from the console's client secret (a secret every mgmt pod
 * shares, directory/system-tenant.ts): the browser can neither read the PKCE verifier and nonce nor forge or
 * alter an entry. HttpOnly, SameSite=Lax (the callback is a top-level GET from auth_url), `__Host-` on https,
 * 10 minutes. It holds at most MAX_PENDING sign-ins (a few tabs signing in at once), newest kept, so its size
 * is bounded too. A state leaves the cookie when its callback comes (the code itself is single-use at auth).
 */
export const SIGNIN_TTL_MS = 10 * 60_000;
export const MAX_PENDING = 3;
/** A longer return path is replaced by the console's start page (keeps the cookie under 4 KB). */
export const MAX_RETURN_LENGTH = 512;

/** What the callback checks: the state, and the sign-in it belongs to. */
export interface PendingSignIn extends SignInRequest {
  state: string;
  returnTo: string;
  /** Epoch ms after which the entry is ignored. */
  expiresAt: number;
}

const entrySchema = z.object({
  state: z.string().min(1).max(100),
  verifier: z.string().min(1).max(200),
  nonce: z.string().min(1).max(200),
  returnTo: z.string().min(1).max(MAX_RETURN_LENGTH),
  expiresAt: z.number(),
});
const cookieSchema = z.array(entrySchema).max(MAX_PENDING);

const AAD = Buffer.from('sesame-console-signin.v1');
/** base64url parts joined by dots; longer is not ours (browsers keep at most 4 KB per cookie anyway). */
const VALUE = /^[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{1,5000}$/;

export const signInCookieName = (secure: boolean) =>
  secure ? '__Host-sesame-console-signin' : 'sesame-console-signin';

export class SignInCookie {
  private readonly key: Buffer;

  constructor(
    /** The console's client secret: the key is derived from it, never the secret itself. */
    secret: string,
    private readonly secure: boolean,
    private readonly now: () => number,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'sesame-console', 'signin-cookie', 32));
  }

  /** Adds a new sign-in to this browser's cookie (dropping expired and the oldest beyond MAX_PENDING). */
  start(req: Request, res: Response, request: SignInRequest, returnTo: string): PendingSignIn {
    const now = this.now();
    const entry: PendingSignIn = {
      ...request,
      state: newSecret(),
      returnTo: returnTo.length <= MAX_RETURN_LENGTH ? returnTo : '/console/',
      expiresAt: now + SIGNIN_TTL_MS,
    };
    const kept = this.read(req).filter((e) => e.expiresAt > now);
    this.write(res, [...kept, entry].slice(-MAX_PENDING));
    return entry;
  }

  /**
   * The live sign-in of `state` in this browser's cookie, removed from it (once); undefined when the cookie
   * is missing, forged, expired, or carries no such state (a state from another browser).
   */
  take(req: Request, res: Response, state: string): PendingSignIn | undefined {
    const now = this.now();
    const live = this.read(req).filter((e) => e.expiresAt > now);
    const found = state ? live.find((e) => safeEqual(e.state, state)) : undefined;
    if (!found) return undefined;
    const rest = live.filter((e) => e !== found);
    if (rest.length) this.write(res, rest);
    else this.clear(res);
    return found;
  }

  private read(req: Request): PendingSignIn[] {
    const name = signInCookieName(this.secure);
    for (const part of (req.header('cookie') ?? '').split(';')) {
      const at = part.indexOf('=');
      if (at <= 0 || part.slice(0, at).trim() !== name) continue;
      const opened = this.open(part.slice(at + 1).trim());
      return opened ?? [];
    }
    return [];
  }

  private open(value: string): PendingSignIn[] | undefined {
    if (!VALUE.test(value)) return undefined;
    const [iv, tag, body] = value.split('.') as [string, string, string];
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(AAD);
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
      const parsed = cookieSchema.safeParse(JSON.parse(plain.toString('utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  private write(res: Response, entries: PendingSignIn[]): void {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(AAD);
    const body = Buffer.concat([cipher.update(JSON.stringify(entries), 'utf8'), cipher.final()]);
    const value = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
    res.cookie(signInCookieName(this.secure), value, { ...this.options(), maxAge: SIGNIN_TTL_MS });
  }

  private clear(res: Response): void {
    res.clearCookie(signInCookieName(this.secure), this.options());
  }

  private options() {
    return { httpOnly: true, sameSite: 'lax' as const, secure: this.secure, path: '/' };
  }
}
