import { isIPv4, isIPv6 } from 'node:net';

/** An address worth looking up in an IP-location database. */
export interface PublicAddress {
  family: 4 | 6;
  address: string;
}

// Addresses no location database can place, by IANA's special-purpose registries: this network,
// private, shared (carrier-grade NAT), loopback, link-local, IETF protocol assignments, documentation,
// benchmarking, multicast, reserved and broadcast.
const IPV4_NOT_PUBLIC: [base: string, bits: number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
];
const IPV4_RANGES = IPV4_NOT_PUBLIC.map(([base, bits]) => {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return { network: (ipv4Number(base) & mask) >>> 0, mask };
});

/** Longest textual IPv6 address with a zone we would bother to strip; anything longer is garbage. */
const MAX_ADDRESS_LENGTH = 100;

/**
 * The address to look up for a client IP as express reports it, or undefined when it is unparseable or
 * not public (loopback, private, link-local, ...): such an address says nothing about where a person is.
 * An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, what a dual-stack socket reports) becomes its IPv4.
 */
export function publicAddress(ip: string): PublicAddress | undefined {
  if (typeof ip !== 'string' || ip.length > MAX_ADDRESS_LENGTH) return undefined;
  const text = ip.trim();
  if (isIPv4(text)) return publicIpv4(text);
  const withoutZone = text.split('%', 1)[0] ?? '';
  if (!isIPv6(withoutZone)) return undefined;
  const groups = ipv6Groups(withoutZone);
  if (groups === undefined) return undefined;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const hi = groups[6] ?? 0;
    const lo = groups[7] ?? 0;
    return publicIpv4(`${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`);
  }
  return isPublicIpv6(groups) ? { family: 6, address: withoutZone } : undefined;
}

function publicIpv4(address: string): PublicAddress | undefined {
  const n = ipv4Number(address);
  const reserved = IPV4_RANGES.some(({ network, mask }) => (n & mask) >>> 0 === network);
  return reserved ? undefined : { family: 4, address };
}

// Only global unicast (2000::/3) is placed by location databases; of it, documentation (2001:db8::/32)
// is not public. This also excludes ::, ::1, unique-local fc00::/7, link-local fe80::/10 and ff00::/8.
function isPublicIpv6(groups: number[]): boolean {
  const first = groups[0] ?? 0;
  if ((first & 0xe000) !== 0x2000) return false;
  return !(first === 0x2001 && groups[1] === 0x0db8);
}

function ipv4Number(address: string): number {
  return address.split('.').reduce((n, octet) => ((n << 8) | Number(octet)) >>> 0, 0);
}

/** The eight 16-bit groups of a valid IPv6 address (checked by isIPv6 first), with an IPv4 tail expanded. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const n = ipv4Number(tail);
    text = `${text.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros = rest === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(zeros).fill('0'), ...right].map((g) => Number.parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}
