import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { type OutboundPolicy, OutboundRefused, checkAddress, checkOutboundUrl } from './outbound';

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Every address of a host name (tests inject one to play DNS rebinding). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );

/**
 * The socket's own lookup: resolves the name, refuses it when ANY address is not allowed, and hands the
 * checked addresses to the connect. The check and the connect use the same answer, so a name that changes
 * its address between a check and the connect (DNS rebinding) cannot lead the call inside.
 */
function checkedLookup(policy: OutboundPolicy, resolver: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw new OutboundRefused('the host has no address');
        for (const a of addresses) checkAddress(a.address, policy);
        if ((options as { all?: boolean }).all)
          (callback as (e: null, a: ResolvedAddress[]) => void)(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      })
      .catch((err: Error) => callback(err as NodeJS.ErrnoException, '', 0));
  };
}

export interface OutboundPost {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  policy: OutboundPolicy;
  resolver?: Resolver;
}

/**
 * POSTs to a URL a tenant registered, as safely as an outbound call can go: the URL is checked again
 * (checkOutboundUrl), the connection goes to an address that was resolved and checked for this very
 * connection, redirects are never followed (a 3xx is just the answer), and the whole exchange has one
 * deadline. Resolves with the status; rejects with OutboundRefused, or the network error or timeout.
 */
export function postToRegisteredUrl(raw: string, opts: OutboundPost): Promise<{ status: number }> {
  const url = checkOutboundUrl(raw, opts.policy);
  const transport = url.protocol === 'https:' ? https : http;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const req = transport.request(
      {
        method: 'POST',
        host: hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) },
        // An address literal was checked above and needs no lookup; a name is resolved and checked here.
        ...(isIP(hostname) ? {} : { lookup: checkedLookup(opts.policy, opts.resolver ?? systemResolver) }),
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0 });
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      },
    );
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(opts.body);
  });
}
