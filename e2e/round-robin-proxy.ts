import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a Kubernetes Service does for the rolling-restart test: round robin over the backends whose /readyz
 * answers 200 (polled every pollMs, as endpoint updates would arrive). A backend that fails is a 502.
 */
export async function roundRobinProxy(pollMs = 100) {
  const backends = new Map<number, boolean>();
  let next = 0;
  const poll = setInterval(() => {
    for (const port of backends.keys()) {
      // A slow answer (the load saturates the CPUs) changes nothing, as a probe's failureThreshold would;
      // an answer other than 200, or a refused connection, takes the backend out.
      fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => backends.has(port) && backends.set(port, r.status === 200),
        (err) => backends.has(port) && err?.name !== 'TimeoutError' && backends.set(port, false),
      );
    }
  }, pollMs);
  const server: Server = createServer((req, res) => {
    const ready = [...backends].filter(([, ok]) => ok).map(([port]) => port);
    const port = ready[next++ % Math.max(1, ready.length)];
    if (port === undefined) return void res.writeHead(503).end();
    const upstream = request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent: false },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.headersSent || res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    add: (port: number) => backends.set(port, false),
    remove: (port: number) => backends.delete(port),
    close: () => {
      clearInterval(poll);
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
