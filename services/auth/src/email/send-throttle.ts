import { type KeyValueStore, type LimitSubject, SendLimiter } from '@sesame/kv';

export interface SendLimits {
  /** Per address (or number) and caller IP: what one stranger may make Sesame send to someone. */
  perAddress: number;
  /** Per caller IP over every address. */
  perIp: number;
  windowMs: number;
  /** Per address and tenant over every IP (none when absent). */
  perAddressTenant?: number;
  /** Per address over every tenant and IP: the ceiling of a distributed flood (none when absent). */
  perAddressGlobal?: number;
  /** Per address and tenant for browsers whose signed-in person proved it, apart from strangers (none: unlimited). */
  perProvenAddress?: number;
}

/**
 * Who asks for a mail: the flow's tenant, and `proven` when the browser's session is signed in (same tenant)
 * as the person who proved this very address (or number): then strangers' windows do not hold it.
 */
export interface SendRequester {
  tenant?: string;
  proven?: boolean;
}

/**
 * Limits sign-in mails (codes and links) and phone codes so nobody can bomb a mailbox through Sesame, and
 * nobody can lock the owner out either: @sesame/kv's SendLimiter (purpose signin_mail: sliding windows in the
 * key-value store, reserved in all at once, a refused request takes no place) per (address, caller IP),
 * (address, tenant), address, and caller IP; a proven requester counts in its own window only.
 */
export class SendThrottle {
  private readonly limiter: SendLimiter;

  constructor(kv: KeyValueStore, limits: SendLimits, now: () => number = Date.now) {
    const window = (limit: number | undefined) =>
      limit === undefined ? undefined : { limit, windowMs: limits.windowMs };
    this.limiter = new SendLimiter(
      kv,
      'signin_mail',
      {
        destination_ip: window(limits.perAddress),
        destination_tenant: window(limits.perAddressTenant),
        destination: window(limits.perAddressGlobal),
        ip: window(limits.perIp),
        proven: window(limits.perProvenAddress),
      },
      now,
    );
  }

  private static subject(address: string, ip: string, requester: SendRequester): LimitSubject {
    const who: LimitSubject = { destination: address.toLowerCase(), ip };
    if (requester.tenant !== undefined) who.tenant = requester.tenant;
    return who;
  }

  /** Reserves one send; false when a limit is already reached (nothing is sent then). */
  async reserve(address: string, ip: string, requester: SendRequester = {}): Promise<boolean> {
    const decision = await this.limiter.reserve(SendThrottle.subject(address, ip, requester), {
      proven: requester.proven === true,
    });
    return decision.allowed;
  }

  /**
   * How long until a send to `address` from `ip` would be allowed (0: now): until every full window frees a
   * place. Reads only; the code pages show it as their resend timer.
   */
  waitMs(address: string, ip: string, requester: SendRequester = {}): Promise<number> {
    return this.limiter.waitMs(SendThrottle.subject(address, ip, requester), {
      proven: requester.proven === true,
    });
  }
}
