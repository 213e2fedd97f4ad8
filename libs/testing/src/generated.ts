/**
 * A seeded source of generated test inputs (the differential tests of the fast paths): the same seed gives
 * the same inputs, so a failure names its seed and replays exactly. SESAME_TEST_SEED=<n> runs other inputs.
 */
export interface Gen {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** true with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A string of length in [min, max] over the alphabet's characters (code points). */
  text(alphabet: string, min: number, max: number): string;
  /** A few of the items, in a random order, each at most once. */
  some<T>(items: readonly T[], max?: number): T[];
}

/** mulberry32: small, fast and good enough to spread test inputs; not for anything secret. */
export function seeded(seed: number): Gen {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error('pick from no items');
    return items[int(0, items.length - 1)]!;
  };
  return {
    seed,
    next,
    int,
    chance: (p) => next() < p,
    pick,
    text(alphabet, min, max) {
      const chars = [...alphabet];
      let out = '';
      for (let n = int(min, max); n > 0; n--) out += pick(chars);
      return out;
    },
    some(items, max = items.length) {
      const pool = [...items];
      const out: Array<(typeof items)[number]> = [];
      for (let n = int(0, Math.min(max, pool.length)); n > 0; n--)
        out.push(pool.splice(int(0, pool.length - 1), 1)[0]!);
      return out;
    },
  };
}

/** The seed of a generated test: SESAME_TEST_SEED when set, else the test's own fixed one. */
export function testSeed(fixed: number, env: Record<string, string | undefined> = process.env): number {
  const given = env.SESAME_TEST_SEED;
  return given !== undefined && /^\d+$/.test(given) ? Number(given) : fixed;
}
