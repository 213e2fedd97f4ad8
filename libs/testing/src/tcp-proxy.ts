import { type AddressInfo, type Server, type Socket, connect, createServer } from 'node:net';

export interface TcpProxy {
  /** host:port of the proxy, to put in a store URL in place of the real server's. */
  readonly address: string;
  /** An outage: closes the port and cuts every open connection (callers get ECONNREFUSED/ECONNRESET). */
  stop(): Promise<void>;
  /** The server comes back: listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback in front of a real server, for outage tests that must not stop the servers other
 * tests share: point the service at the proxy, stop the proxy, start it again.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const sock of [client, upstream]) {
          sockets.add(sock);
          sock.on('close', () => sockets.delete(sock));
          sock.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as AddressInfo).port;
        server = s;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const sock of sockets) sock.destroy();
      sockets.clear();
      if (!server) return resolve();
      const s = server;
      server = undefined;
      s.close(() => resolve());
    });
  await listen();
  return {
    address: `127.0.0.1:${port}`,
    stop,
    start: () => (server ? Promise.resolve() : listen()),
    close: stop,
  };
}

/** The URL with its host and port replaced by the proxy's (for redis:// and mongodb:// URLs). */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const parsed = new URL(url);
  parsed.host = proxy.address;
  return parsed.toString();
}

/** host and port of a store URL, as a proxy target. */
export function hostPortOf(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
}
