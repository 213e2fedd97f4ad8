import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MemoryEventBus } from '@sesame/events';
import { createLogger } from '@sesame/platform';
import { eventually } from '@sesame/testing';
import { loadCibaNotifierConfig } from '../config';
import { createCibaNotifierService } from '../service';

export const silentLogger = createLogger({ service: 'ciba-notifier', level: 'silent' });

/** Listens on a free loopback port; resolves to the server's origin (`http://127.0.0.1:<port>`). */
export async function listenLocally(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A receiving endpoint (a client's notification endpoint, an app's back-channel logout URI): each request is
 * read whole and handed to `onRequest` with its body, which answers with the status it returns.
 */
export function receivingEndpoint(onRequest: (req: IncomingMessage, body: string) => number): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      res.writeHead(onRequest(req, body)).end();
    });
  });
}

/** The notifier on this in-memory bus with a 1 ms ping backoff, started; resolves to its stop. */
export async function startNotifier(bus: MemoryEventBus): Promise<() => Promise<void>> {
  const mod = await createCibaNotifierService(loadCibaNotifierConfig({ CIBA_PING_BACKOFF_MS: '1' }), {
    bus,
    logger: silentLogger,
  });
  await mod.start?.();
  return mod.stop;
}

/** Waits until `list` holds at least `n` entries. */
export const untilAtLeast = (list: readonly unknown[], n: number) =>
  eventually(
    async () => list.length,
    (length) => length >= n,
  );
