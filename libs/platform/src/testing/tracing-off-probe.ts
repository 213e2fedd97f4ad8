/**
 * Run by tracing.test.ts in a process of its own: loads the whole platform with tracing off, serves one
 * request through tracedListener, and prints the own symbols of a promise made before and one made while
 * serving ({beforeServing, whileServing}). With no async hook enabled both are empty: Node adds async ids
 * (and AsyncLocalStorage's store) to every promise once a hook is on.
 */
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, tracedListener } from '../index';

const symbolsOf = (promise: Promise<unknown>) => Object.getOwnPropertySymbols(promise).map(String);
createLogger({ service: 'probe', level: 'silent' }).info('loaded');
const beforeServing = symbolsOf(new Promise(() => {}));
let whileServing: string[] = [];
const server = createServer(
  tracedListener((_req, res) => {
    const made = new Promise<void>((resolve) => setImmediate(resolve));
    whileServing = symbolsOf(made);
    void made.then(() => res.end('ok'));
  }),
).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const { port } = server.address() as AddressInfo;
await new Promise<void>((resolve) =>
  get({ port, host: '127.0.0.1' }, (res) => res.resume().on('end', resolve)),
);
server.close();
process.stdout.write(JSON.stringify({ beforeServing, whileServing }));
