/**
 * The key → (value, expiry) table of the in-memory KV, kept compact because the embedded default holds every
 * access token issued until it expires (hundreds of thousands under load):
 *   - no object per entry: the key maps to a slot number (a small integer, no allocation), the slot's value
 *     sits in one array and its expiry in one Float64Array (8 bytes, no boxed number);
 *   - a key ending in a SHA-256 hex digest (`access:<sha256>`, as callers key secrets) keeps the digest as
 *     32 one-byte characters instead of 64;
 *   - a value equal to one of the last few values set is stored as that same string (tokens issued in the
 *     same second to the same client carry identical grants), so it is held once.
 * Keys are never listed, so the internal form of a key is invisible to callers.
 */

const RECENT_VALUES = 8;

/** A character code's value as a lower-case hex digit, or -1 (an upper-case digest is kept as it is). */
const HEX_VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) HEX_VALUES['0123456789abcdef'.charCodeAt(i)] = i;
const hexValue = (code: number) => (code < 128 ? HEX_VALUES[code]! : -1);

/** The bytes of the digest last decoded (one array reused: a key is decoded and made into a string at once). */
const digestBytes: number[] = new Array(32).fill(0);

/**
 * Decodes the 64 characters of `key` from `at` into digestBytes; false when one is not a lower-case hex
 * digit. By hand rather than Buffer.from(…, 'hex'): this runs on every get and set of a hashed key (three
 * times a client_credentials grant), and the Buffer, its latin1 string and the regular expression that
 * checked the form first cost about twice as much.
 */
function decodeDigest(key: string, at: number): boolean {
  for (let i = 0; i < 32; i++) {
    const high = hexValue(key.charCodeAt(at + 2 * i));
    const low = hexValue(key.charCodeAt(at + 2 * i + 1));
    if ((high | low) < 0) return false;
    digestBytes[i] = (high << 4) | low;
  }
  return true;
}

/**
 * The internal form of a key: injective, so distinct keys never meet. A compacted key starts with \x00,
 * any other key starting with \x00 or \x01 gets a \x01 in front; the rest are kept as they are.
 */
export function compactKey(key: string): string {
  const tail = key.length - 64;
  if (tail >= 0 && decodeDigest(key, tail))
    return `\x00${key.slice(0, tail)}${String.fromCharCode.apply(null, digestBytes)}`;
  const first = key.charCodeAt(0);
  return first === 0 || first === 1 ? `\x01${key}` : key;
}

export class EntryTable {
  private readonly slots = new Map<string, number>();
  private values: Array<string | undefined> = [];
  private expiries = new Float64Array(64);
  private readonly freeSlots: number[] = [];
  private readonly recent: string[] = [];
  private recentNext = 0;

  get size(): number {
    return this.slots.size;
  }

  /** The slot of a live key; an expired entry is removed on the way. */
  private liveSlot(key: string, now: number): number | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    if (this.expiries[slot]! <= now) {
      this.release(key, slot);
      return undefined;
    }
    return slot;
  }

  value(key: string, now: number): string | undefined {
    const slot = this.liveSlot(compactKey(key), now);
    return slot === undefined ? undefined : this.values[slot];
  }

  expiresAt(key: string, now: number): number | undefined {
    const slot = this.liveSlot(compactKey(key), now);
    return slot === undefined ? undefined : this.expiries[slot];
  }

  set(key: string, value: string, expiresAt: number): void {
    const internal = compactKey(key);
    let slot = this.slots.get(internal);
    if (slot === undefined) {
      slot = this.freeSlots.pop() ?? this.values.length;
      if (slot >= this.expiries.length) {
        const grown = new Float64Array(this.expiries.length * 2);
        grown.set(this.expiries);
        this.expiries = grown;
      }
      this.slots.set(internal, slot);
    }
    this.values[slot] = this.shared(value);
    this.expiries[slot] = expiresAt;
  }

  /** Changes a live entry's value, keeping its expiry; false when there is none. */
  update(key: string, value: string, now: number): boolean {
    const slot = this.liveSlot(compactKey(key), now);
    if (slot === undefined) return false;
    this.values[slot] = this.shared(value);
    return true;
  }

  delete(key: string): void {
    const internal = compactKey(key);
    const slot = this.slots.get(internal);
    if (slot !== undefined) this.release(internal, slot);
  }

  sweep(now: number): void {
    for (const [key, slot] of this.slots) if (this.expiries[slot]! <= now) this.release(key, slot);
  }

  clear(): void {
    this.slots.clear();
    this.values = [];
    this.expiries = new Float64Array(64);
    this.freeSlots.length = 0;
    this.recent.length = 0;
  }

  private release(internal: string, slot: number): void {
    this.slots.delete(internal);
    this.values[slot] = undefined;
    this.freeSlots.push(slot);
  }

  /** The value as one of the recently set equal strings, when there is one (held once, not per entry). */
  private shared(value: string): string {
    for (const seen of this.recent) if (seen === value) return seen;
    this.recent[this.recentNext] = value;
    this.recentNext = (this.recentNext + 1) % RECENT_VALUES;
    return value;
  }
}
