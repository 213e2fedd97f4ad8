import type { KeyValueStore } from '@sesame/kv';
import { HashedLinks, LINK_OWNER_MEMORY_MS, type LinkOwner, newLinkToken } from '../../hashed-links';

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

/**
 * The URLs interactive init hands out (`{auth_url}/enroll/<token>`): 256 random bits, kept in Redis only as an
 * HMAC under the server's code key (a copy of Redis gives no link away), bound to one user and app, single use
 * (taken atomically when opened) and short-lived (SESAME_ENROLLMENT_LINK_TTL_S).
 */
export class EnrollmentLinks {
  private readonly links: HashedLinks;
  private readonly owners: HashedLinks;

  constructor(
    kv: KeyValueStore,
    private readonly opts: { hashKey: string; ttlMs: number; now?: () => number },
  ) {
    this.links = new HashedLinks(kv, opts.hashKey, 'enroll-link');
    this.owners = new HashedLinks(kv, opts.hashKey, 'enroll-link-owner');
  }

  async create(grant: Omit<EnrollmentGrant, 'createdAt'>): Promise<{ token: string; expiresAt: number }> {
    const token = newLinkToken();
    const createdAt = (this.opts.now ?? Date.now)();
    await this.links.put(token, JSON.stringify({ ...grant, createdAt }), this.opts.ttlMs);
    // The app's name is not part of a grant: the page of a spent link shows the brand's own name.
    const owner: LinkOwner = { tenantId: grant.tenantId, appId: grant.appId, appName: '' };
    await this.owners.put(token, JSON.stringify(owner), this.opts.ttlMs + LINK_OWNER_MEMORY_MS);
    return { token, expiresAt: createdAt + this.opts.ttlMs };
  }

  /** The tenant and app of a link, live, used or expired (for a day after), else undefined. */
  async ownerOf(token: string): Promise<LinkOwner | undefined> {
    const raw = await this.owners.peek(token);
    return raw ? (JSON.parse(raw) as LinkOwner) : undefined;
  }

  /** Takes the link: its grant once, then undefined (also for an expired, unknown or malformed token). */
  async take(token: string): Promise<EnrollmentGrant | undefined> {
    const raw = await this.links.take(token);
    return raw ? (JSON.parse(raw) as EnrollmentGrant) : undefined;
  }
}
