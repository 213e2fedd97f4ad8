/**
 * Bare node:http servers for bench/jwks.bench.ts and bench/jwks-profile.ts: the hello-world of issue 29, and
 * a handler that writes, with writeHead(status, list) and end(body), the very answer Sesame sent for a URL
 * (captured once; only the headers node sets by itself, Date and the connection's, are left to node, as for
 * Sesame). The same bytes on the wire as Sesame's, so what differs is Sesame's own per-request work.
 */
import { type RequestListener, createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BareServer {
  url: string;
  close: () => void;
}

export async function bareServer(handler: RequestListener): Promise<BareServer> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

export const bareHelloWorld = () =>
  bareServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('hello world');
  });

/** One GET of `url`: its status, header list as sent and body. */
function capture(url: string): Promise<{ status: number; rawHeaders: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

/** Headers node:http sets by itself on every answer (the bare server gets them from node too). */
const setByNode = new Set(['date', 'connection', 'keep-alive']);

/** A bare node:http handler writing the very answer Sesame sent for `url`. */
export async function sameAnswerHandler(url: string): Promise<RequestListener> {
  const { status, rawHeaders, body } = await capture(url);
  const list = rawHeaders.filter((_, i) => !setByNode.has(rawHeaders[i - (i % 2)]!.toLowerCase()));
  return (_req, res) => {
    res.writeHead(status, list);
    res.end(body);
  };
}

/** A bare node:http server writing the very answer Sesame sent for `url`. */
export async function bareSameAnswer(url: string): Promise<BareServer> {
  return bareServer(await sameAnswerHandler(url));
}
