type Job = () => Promise<void>;

interface Queue {
  running: number;
  waiting: Array<{ job: Job; dropped?: () => void }>;
}

/**
 * One queue per notification endpoint (its origin), each with its own concurrency: a slow or hanging
 * endpoint fills only its own slots and its own queue, and never delays another endpoint's pings. A queue
 * over `maxWaiting` drops its oldest job (its `dropped`, then `onDropped`), so one endpoint cannot grow
 * memory without bound.
 */
export class EndpointQueues {
  private readonly queues = new Map<string, Queue>();
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    private readonly opts: {
      concurrency: number;
      maxWaiting: number;
      onDropped?: (endpoint: string) => void;
    },
  ) {}

  push(endpoint: string, job: Job, dropped?: () => void): void {
    let queue = this.queues.get(endpoint);
    if (!queue) {
      queue = { running: 0, waiting: [] };
      this.queues.set(endpoint, queue);
    }
    queue.waiting.push({ job, ...(dropped ? { dropped } : {}) });
    if (queue.waiting.length > this.opts.maxWaiting) {
      queue.waiting.shift()?.dropped?.();
      this.opts.onDropped?.(endpoint);
    }
    this.pump(endpoint, queue);
  }

  /** Jobs running or waiting, over every endpoint. */
  get size(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.running + q.waiting.length;
    return n;
  }

  /** Resolves once no job runs or waits (jobs pushed meanwhile included). */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(endpoint: string, queue: Queue): void {
    while (queue.running < this.opts.concurrency && queue.waiting.length > 0) {
      const { job } = queue.waiting.shift()!;
      queue.running++;
      job()
        .catch(() => undefined)
        .finally(() => {
          queue.running--;
          if (queue.running === 0 && queue.waiting.length === 0) this.queues.delete(endpoint);
          else this.pump(endpoint, queue);
          if (this.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
        });
    }
  }
}
