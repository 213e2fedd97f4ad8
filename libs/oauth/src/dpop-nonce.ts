import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '@sesame/platform';

/** How long one server nonce is handed out; the previous one is still accepted, so a nonce lives 2 slots. */
export const DPOP_NONCE_SLOT_MS = 5 * 60 * 1000;

/** Server-provided DPoP nonces (RFC 9449 §8). */
export interface DpopNonces {
  /** The nonce to hand out now (DPoP-Nonce). */
  current(): string;
  /** Whether a proof's nonce is the current one or the previous one. */
  accepts(nonce: string): boolean;
}

/**
 * Stateless nonces every pod agrees on without a store: HMAC-SHA256(secret, time slot), base64url. A nonce
 * is good for its slot and the next (5 to 10 minutes), which bounds how long a proof signed in advance can
 * be used, whatever its iat says.
 */
export function dpopNonces(secret: string, clock: Clock): DpopNonces {
  // The last two slots' nonces, computed once per slot rather than up to three HMACs per request.
  const known = new Map<number, string>();
  const forSlot = (slot: number) => {
    let nonce = known.get(slot);
    if (nonce === undefined) {
      nonce = createHmac('sha256', secret).update(`dpop-nonce:${slot}`).digest('base64url');
      if (known.size >= 2) known.delete(Math.min(...known.keys()));
      known.set(slot, nonce);
    }
    return nonce;
  };
  const slotNow = () => Math.floor(clock.now() / DPOP_NONCE_SLOT_MS);
  const same = (a: string, b: string) =>
    a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  return {
    current: () => forSlot(slotNow()),
    accepts(nonce) {
      const slot = slotNow();
      return same(nonce, forSlot(slot)) || same(nonce, forSlot(slot - 1));
    },
  };
}
