import type { KeyValueStore } from '@sesame/kv';
import type { Invitation } from '../../flow/flow';
import { HashedLinks, LINK_OWNER_MEMORY_MS, type LinkOwner, newLinkToken } from '../../hashed-links';

/** What a registration link (send-activation, spec 4.5) starts: everything the pages need, decided by mgmt. */
export type { Invitation };

/**
 * Registration links (`{auth_url}/register/<token>`): 256 random bits, kept in the KV store only as an HMAC
 * under the server's code key (the raw token is in the mail and nowhere else), single use (taken atomically),
 * living as long as the invitation (30 minutes by default). Opening looks; the person's Continue takes it,
 * so a mail scanner's preview fetch spends nothing.
 */
export class RegistrationLinks {
  private readonly links: HashedLinks;
  private readonly owners: HashedLinks;

  constructor(kv: KeyValueStore, hashKey: string) {
    this.links = new HashedLinks(kv, hashKey, 'registration-link');
    this.owners = new HashedLinks(kv, hashKey, 'registration-link-owner');
  }

  /** Stores the invitation under a fresh token and returns the token (for the mail only). */
  async create(invitation: Invitation): Promise<string> {
    const token = newLinkToken();
    const ttlMs = invitation.expiresAt - invitation.createdAt;
    if (ttlMs <= 0) throw new Error('an invitation must expire after it is created');
    await this.links.put(token, JSON.stringify(invitation), ttlMs);
    const { tenantId, appId, appName } = invitation;
    await this.owners.put(token, JSON.stringify({ tenantId, appId, appName }), ttlMs + LINK_OWNER_MEMORY_MS);
    return token;
  }

  /** The tenant and app of a link, live, used or expired (for a day after), else undefined. */
  async ownerOf(token: string): Promise<LinkOwner | undefined> {
    const raw = await this.owners.peek(token);
    return raw ? (JSON.parse(raw) as LinkOwner) : undefined;
  }

  /** The invitation of a live link, without spending it. */
  async lookup(token: string): Promise<Invitation | undefined> {
    const raw = await this.links.peek(token);
    return raw ? (JSON.parse(raw) as Invitation) : undefined;
  }

  /** Takes the link: its invitation once, then undefined (a second tab, a replay, an expired link). */
  async consume(token: string): Promise<Invitation | undefined> {
    const raw = await this.links.take(token);
    return raw ? (JSON.parse(raw) as Invitation) : undefined;
  }

  async revoke(token: string): Promise<void> {
    await this.links.delete(token);
    await this.owners.delete(token);
  }
}
