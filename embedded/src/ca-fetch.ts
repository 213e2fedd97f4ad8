import { request } from 'node:https';

/**
 * A fetch for the launcher's own calls to its https port (the demo seed), trusting only the local CA: node's
 * fetch takes no CA without the undici package, and NODE_EXTRA_CA_CERTS is read once, at process start.
 * Enough for small JSON calls: no redirects, no streaming.
 */
export function caFetch(
  ca: string,
  /** A TLS client certificate to present (mutual TLS), PEM. */
  client?: { cert: string; key: string },
): (url: string, init?: RequestInit) => Promise<Response> {
  return (url, init = {}) =>
    new Promise((resolve, reject) => {
      const headers = new Headers(init.headers);
      const body = typeof init.body === 'string' ? init.body : undefined;
      if (body !== undefined) headers.set('content-length', String(Buffer.byteLength(body)));
      const req = request(
        url,
        { method: init.method ?? 'GET', headers: Object.fromEntries(headers), ca, ...client },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const answer = new Headers();
            for (const [name, value] of Object.entries(res.headers))
              for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
                answer.append(name, one);
            const status = res.statusCode ?? 502;
            const empty = status === 204 || status === 304;
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: answer }));
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}
