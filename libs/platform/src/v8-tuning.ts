import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring for this process. Call it first thing in a process's main, before
 * any code is optimized.
 *
 * Why: an export streams records that each live for microseconds. Yet with pretenuring on, V8 kept about a
 * tenth of what mgmt decoded from the export's messages alive across young collections, so it ended up in the
 * old generation. Measured with --trace-gc-nvp: 160 MB promoted per 200,000 records, against 5.5 MB with it
 * off. That garbage stayed until the next full collection. With the embedded default's stores in the same
 * heap (over a GB), the next full collection can be a gigabyte away. docs/performance.md has the figures
 * (the export). Pretenuring only saves copying for objects that live long, so turning it off costs a little
 * young-collection work when a store is loaded, and changes nothing else.
 */
export function disableAllocationSitePretenuring(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}

/** The old generation may grow to this many percent above what survived the last full collection. */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Lets the old generation grow by at most HEAP_GROWING_PERCENT above what the last full collection kept,
 * before the next one, instead of V8's own factor (up to four times on a machine with memory to spare).
 *
 * Why: the embedded default must stay small under a flood of sign-in starts (issue 42: RSS under 600 MB).
 * What such a flood keeps alive is bounded (~140 MB of heap), yet V8 let the garbage between full collections
 * reach 300–500 MB of committed heap: RSS 680–790 MB after 100,000–150,000 starts, 513–553 MB with this
 * (bench/authorize-memory.ts). It costs more full collections where much is promoted: GET /authorize's
 * handler 116 µs of CPU against 112 (noisy, docs/performance.md), client_credentials unchanged.
 */
export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * A copy of `record` in V8's dictionary mode, for a long-lived object whose keys are ids (a membership's
 * deviceLogins, one key per device) in an in-memory store.
 *
 * Why: V8 gives an ordinary object a hidden class per set of property names, so a store holding 100,000
 * objects each keyed by a different device id holds 100,000 hidden classes hanging off the empty object's.
 * With those alive, every young collection of the export of 1,000,000 records kept about 4 MB of the
 * export's short-lived objects and promoted them: over a GB of garbage in the old generation before the
 * next full collection (docs/performance.md, the export's fourth pass). An object made with a null
 * prototype starts in dictionary mode and stays in it: no hidden class per key. Null prototype: read it
 * with `record[key]`, `Object.entries` and spreads, not with methods of Object.prototype.
 */
export function idKeyed<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, record);
}
