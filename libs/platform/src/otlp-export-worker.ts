import { Worker } from 'node:worker_threads';

/**
 * The export requests, made by a worker thread of their own. Made on the main thread, each (an HTTP client
 * request, its socket's writes, its response's parse) runs node's shared HTTP and stream code with objects of
 * other shapes than the server's requests and answers, and V8 deoptimizes that code and compiles it again
 * for both: at 10 % sampling, one export a second cost client_credentials about a tenth of its rate
 * (docs/operations.md, Tracing). In a worker the main thread only hands over a string. The worker's code is
 * small and inline (no file for a bundler to find).
 */
export class ExportWorker {
  private worker: Worker | undefined;
  private next = 0;
  private readonly waiting = new Map<number, (sent: Sent) => void>();

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
    private readonly headers: Record<string, string>,
  ) {}

  post(body: string): Promise<Sent> {
    const worker = this.start();
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ id, body });
    });
  }

  /** Stops the worker once nothing is waiting for it (the processor's shutdown). */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerSource, {
      eval: true,
      workerData: { url: this.url, timeoutMs: this.timeoutMs, headers: this.headers },
      // What the worker needs: a few sockets' buffers, not a service's heap.
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    });
    worker.on('message', ({ id, ok, why }: { id: number } & Sent) => this.settle(id, { ok, why }));
    // A worker that dies (out of memory, terminated) loses what it was sending; the next batch starts another.
    const lost = () => {
      if (this.worker === worker) this.worker = undefined;
      for (const id of [...this.waiting.keys()]) this.settle(id, { ok: false, why: 'export worker stopped' });
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private settle(id: number, sent: Sent): void {
    const resolve = this.waiting.get(id);
    if (!resolve) return;
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker?.unref();
    resolve(sent);
  }
}

/** What the worker answers for one export request. */
export interface Sent {
  ok: boolean;
  why: string;
}

/** The worker: POSTs each body it is handed to the collector and answers whether it took it (2xx). */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const url = new URL(workerData.url);
const request = url.protocol === 'https:' ? require('node:https').request : require('node:http').request;
parentPort.on('message', ({ id, body }) => {
  let answered = false;
  const answer = (ok, why) => {
    if (answered) return;
    answered = true;
    parentPort.postMessage({ id, ok, why });
  };
  const req = request(url, {
    method: 'POST',
    headers: { ...workerData.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    timeout: workerData.timeoutMs,
  }, (res) => {
    res.resume();
    res.on('end', () => answer(res.statusCode >= 200 && res.statusCode < 300, 'status ' + res.statusCode));
    res.on('error', (err) => answer(false, err.code || 'response error'));
  });
  req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
  req.on('error', (err) => answer(false, err.code || err.message));
  req.end(body);
});
`;
