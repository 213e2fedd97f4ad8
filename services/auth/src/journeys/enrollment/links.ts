import { createHmac, randomBytes } from 'node:crypto';
import type { KeyValueStore } from '@sesame/kv';

/** What an interactive init URL is bound to: one user of one app, and where the flow ends. */
export interface EnrollmentGrant {
  tenantId: string;
  appId: string;
  clientId: string;
  userId: string;
  purpose: 'device_enrollment';
  redirectUri: string;
  state?: string;
  createdAt: number;
}

const TOKEN = /^[\w-]{43}$/;
const linkKey = (hash: string) => `enroll-link:${hash}`;

/**
 * The URLs interactive init hands out (`{auth_url}/enroll/<token>`): 256 random bits, kept in Redis only as an
 * HMAC under the server's code key (a copy of Redis gives no link away), bound to one user and app, single use
 * (taken atomically when opened) and short-lived (SESAME_ENROLLMENT_LINK_TTL_S).
 */
export class EnrollmentLinks {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly opts: { hashKey: string; ttlMs: number; now?: () => number },
  ) {}

  private hash(token: string): string {
    return createHmac('sha256', this.opts.hashKey).update(`enroll-link:${token}`).digest('base64url');
  }

  async create(grant: Omit<EnrollmentGrant, 'createdAt'>): Promise<{ token: string; expiresAt: number }> {
    const token = randomBytes(32).toString('base64url');
    const createdAt = (this.opts.now ?? Date.now)();
    await this.kv.set(linkKey(this.hash(token)), JSON.stringify({ ...grant, createdAt }), {
      ttlMs: this.opts.ttlMs,
      onlyIfAbsent: true,
    });
    return { token, expiresAt: createdAt + this.opts.ttlMs };
  }

  /** Takes the link: its grant once, then undefined (also for an expired, unknown or malformed token). */
  async take(token: string): Promise<EnrollmentGrant | undefined> {
    if (!TOKEN.test(token)) return undefined;
    const raw = await this.kv.take(linkKey(this.hash(token)));
    return raw ? (JSON.parse(raw) as EnrollmentGrant) : undefined;
  }
}
