import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/**
 * One request through a node:http handler without a socket (bench/token-handler.ts, authorize-handler.ts,
 * authorize-memory.ts): what those benches measure is the handler's own CPU, not the kernel's loopback or
 * the HTTP parser. The request comes from 127.0.0.1 (a socket that is never connected); resolves with the
 * status once the handler ends the response.
 */
const socket = new Socket();
Object.defineProperty(socket, 'remoteAddress', { value: '127.0.0.1' });

export interface InMemoryRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export function inMemoryRequest(
  request: InMemoryRequest,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<number> {
  const req = new IncomingMessage(socket);
  req.method = request.method;
  req.url = request.url;
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.headers = request.headers;
  if (request.body) req.push(request.body);
  req.push(null);
  const res = new ServerResponse(req);
  return new Promise((resolve) => {
    const end = res.end.bind(res);
    res.end = ((chunk: unknown) => {
      end(chunk as string);
      resolve(res.statusCode);
      return res;
    }) as typeof res.end;
    handle(req, res);
  });
}
