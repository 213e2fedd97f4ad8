import { BlockList, isIP } from 'node:net';

/**
 * What an outbound call to a URL a tenant registered (the CIBA notification endpoint) may reach. Link-local,
 * metadata, private, unique-local, multicast, unspecified and reserved addresses are refused everywhere;
 * loopback only with `allowLoopback` (development and tests: SESAME_ALLOW_LOOPBACK_NOTIFICATIONS, refused in
 * a production environment); http only with `allowHttp` (development and test kinds).
 */
export interface OutboundPolicy {
  allowHttp: boolean;
  allowLoopback: boolean;
}

/** The strictest policy: https to public addresses only. */
export const STRICT_OUTBOUND: OutboundPolicy = Object.freeze({ allowHttp: false, allowLoopback: false });

/** A URL or address an outbound call may not reach; the message says why, never with credentials. */
export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

export type AddressKind = 'public' | 'loopback' | 'refused';

const refusedV4 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (incl. 192.0.0.192 metadata of some clouds)
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  refusedV4.addSubnet(net, bits, 'ipv4');
const loopbackV4 = new BlockList();
loopbackV4.addSubnet('127.0.0.0', 8, 'ipv4');

const refusedV6 = new BlockList();
for (const [net, bits] of [
  ['::', 96], // unspecified and the deprecated IPv4-compatible form (::1 is handled first)
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local (incl. fd00:ec2::254, a cloud metadata address)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  refusedV6.addSubnet(net, bits, 'ipv6');

/** Expands an IPv6 address to its 8 groups of 16 bits (accepts a dotted IPv4 tail). */
function groupsOf(ipv6: string): number[] {
  let text = ipv6.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => Number.parseInt(g || '0', 16));
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach it: IPv4-mapped (::ffff:a.b.c.d), NAT64
 * (64:ff9b::/96) and 6to4 (2002:AABB:CCDD::/48).
 */
function embeddedV4(ipv6: string): string | undefined {
  const g = groupsOf(ipv6);
  if (g.length !== 8) return undefined;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4Of(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4Of(g[1]!, g[2]!);
  return undefined;
}

/** public, loopback or refused (every other special-purpose range), for an IPv4 or IPv6 address. */
export function classifyAddress(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) {
    if (loopbackV4.check(bare, 'ipv4')) return 'loopback';
    return refusedV4.check(bare, 'ipv4') ? 'refused' : 'public';
  }
  if (family === 6) {
    const v4 = embeddedV4(bare);
    if (v4) return classifyAddress(v4);
    const g = groupsOf(bare);
    if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return 'loopback';
    return refusedV6.check(bare, 'ipv6') ? 'refused' : 'public';
  }
  return 'refused';
}

/** Host names of cloud metadata services and of this machine: refused whatever they resolve to. */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.packet.net',
  'metadata.platformequinix.com',
  'metadata.tencentyun.com',
  'metadata.oraclecloud.com',
]);
const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** Refuses an address the policy does not allow (the rule checked at connect time, for every address). */
export function checkAddress(address: string, policy: OutboundPolicy): void {
  const kind = classifyAddress(address);
  if (kind === 'public') return;
  if (kind === 'loopback' && policy.allowLoopback) return;
  throw new OutboundRefused(
    kind === 'loopback'
      ? 'the host is a loopback address'
      : 'the host is a private, link-local, metadata or other non-public address',
  );
}

/**
 * The checks that need no DNS (at registration and again before each send): an absolute http(s) URL
 * without userinfo or fragment, https unless the policy allows http, a host that is no metadata name, and,
 * when the host is an address in any notation (`127.1`, `2130706433`, `0x7f000001`, `[::ffff:7f00:1]`; the
 * URL parser gives its canonical form), an allowed one. Returns the parsed URL.
 */
export function checkOutboundUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused('must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp))
    throw new OutboundRefused(policy.allowHttp ? 'must be an http or https URL' : 'must be an https URL');
  if (url.username || url.password) throw new OutboundRefused('may not carry a user name or password');
  if (raw.includes('#')) throw new OutboundRefused('may not carry a fragment');
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (METADATA_HOSTS.has(host)) throw new OutboundRefused('the host is a cloud metadata service');
  if (isLocalhostName(host) && !policy.allowLoopback)
    throw new OutboundRefused('the host is a loopback address');
  if (isIP(host)) checkAddress(host, policy);
  return url;
}
