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
