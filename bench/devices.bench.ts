/**
 * What the sign-in flow pays per request for device and location facts: User-Agent parses and IP-location
 * lookups per second on one core, the cost of opening the location database, and the memory it holds.
 *
 *   node --import tsx bench/devices.bench.ts      (BENCH_SECONDS=2 per figure)
 *
 * Inputs rotate through a handful of real UAs and public addresses so no figure is one cached answer.
 */
import {
  closeLocationLookup,
  describeDevice,
  deviceFromUserAgent,
  openLocationLookup,
} from '@sesame/auth-service/devices';

const seconds = Number(process.env.BENCH_SECONDS ?? 2);

const userAgents = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.51',
];
const hostileUserAgent = `Mozilla/5.0 (${'x; '.repeat(3500)})`;
const ipv4 = ['8.8.8.8', '1.1.1.1', '81.2.69.142', '193.0.6.139', '133.11.0.1', '200.160.0.8', '41.0.0.1'];
const ipv6 = ['2001:4860:4860::8888', '2001:67c:2e8:22::c100:68b', '2001:200::1', '2a00:1450:4001:82a::200e'];
const notPublic = ['10.0.0.1', '192.168.1.20', '127.0.0.1', '::1', 'fe80::1', 'not an ip'];

/** Calls fn with rotating inputs for `seconds`; returns calls per second. */
function rate<T>(inputs: T[], fn: (input: T) => unknown): number {
  let sink = 0;
  for (let i = 0; i < 2000; i++) if (fn(inputs[i % inputs.length] as T)) sink++; // warm-up
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let calls = 0;
  while (performance.now() < deadline) {
    for (let i = 0; i < 1000; i++, calls++) if (fn(inputs[calls % inputs.length] as T)) sink++;
  }
  const perSecond = calls / ((performance.now() - started) / 1000);
  return sink >= 0 ? perSecond : 0;
}

const format = (n: number) => Math.round(n).toLocaleString('en-US').padStart(12);

const before = process.memoryUsage();
const openStarted = performance.now();
const locations = await openLocationLookup();
const openMs = performance.now() - openStarted;
const after = process.memoryUsage();

const figures: [string, number][] = [
  ['deviceFromUserAgent, real UAs', rate(userAgents, deviceFromUserAgent)],
  ['deviceFromUserAgent + describeDevice', rate(userAgents, (ua) => describeDevice(deviceFromUserAgent(ua)))],
  ['deviceFromUserAgent, 10 KB hostile UA', rate([hostileUserAgent], deviceFromUserAgent)],
  ['location lookup, public IPv4', rate(ipv4, (ip) => locations.lookup(ip))],
  ['location lookup, public IPv6', rate(ipv6, (ip) => locations.lookup(ip))],
  ['location lookup, private/garbage (no lookup)', rate(notPublic, (ip) => locations.lookup(ip))],
];

console.log(`devices benchmark: ${seconds} s per figure, one core, node ${process.version}`);
for (const [name, perSecond] of figures) {
  console.log(`${name.padEnd(46)}${format(perSecond)} /s  (${(1e6 / perSecond).toFixed(2)} µs each)`);
}
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
console.log(
  `opening the location database: ${openMs.toFixed(0)} ms, ${mb(after.external - before.external)} MB held`,
);
closeLocationLookup();
