import { createHmac, randomBytes } from 'node:crypto';
import type { KeyValueStore } from '@sesame/kv';
import type { Invitation } from '../../flow/flow';

/** What a registration link (send-activation, spec 4.5) starts: everything the pages need, decided by mgmt. */
export type { Invitation };

const TOKEN = /^[\w-]{43}$/;
const linkKey = (hash: string) => `registration-link:${hash}`;

/**
 * Registration links (`{auth_url}/register/<token>`): 256 random bits, kept in the KV store only as an HMAC
 * under the server's code key (the raw token is in the mail and nowhere else), single use (taken atomically),
 * living as long as the invitation (30 minutes by default). Opening looks; the person's Continue takes it,
 * so a mail scanner's preview fetch spends nothing.
 */
export class RegistrationLinks {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly hashKey: string,
  ) {}

  private hash(token: string): string {
    return createHmac('sha256', this.hashKey).update(`registration-link:${token}`).digest('base64url');
  }

  /** Stores the invitation under a fresh token and returns the token (for the mail only). */
  async create(invitation: Invitation): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const ttlMs = invitation.expiresAt - invitation.createdAt;
    if (ttlMs <= 0) throw new Error('an invitation must expire after it is created');
    await this.kv.set(linkKey(this.hash(token)), JSON.stringify(invitation), { ttlMs, onlyIfAbsent: true });
    return token;
  }

  /** The invitation of a live link, without spending it. */
  async lookup(token: string): Promise<Invitation | undefined> {
    if (!TOKEN.test(token)) return undefined;
    const raw = await this.kv.get(linkKey(this.hash(token)));
    return raw ? (JSON.parse(raw) as Invitation) : undefined;
  }

  /** Takes the link: its invitation once, then undefined (a second tab, a replay, an expired link). */
  async consume(token: string): Promise<Invitation | undefined> {
    if (!TOKEN.test(token)) return undefined;
    const raw = await this.kv.take(linkKey(this.hash(token)));
    return raw ? (JSON.parse(raw) as Invitation) : undefined;
  }

  async revoke(token: string): Promise<void> {
    if (TOKEN.test(token)) await this.kv.del(linkKey(this.hash(token)));
  }
}
