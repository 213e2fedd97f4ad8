import type { KeyValueStore } from '@sesame/kv';
import { type Logger, sha256 } from '@sesame/platform';
import type { Counter } from 'prom-client';
import { EndpointQueues } from './endpoint-queues';
import type { AttemptResult } from './notify';

const KEEP_MS = 24 * 3600 * 1000;

/**
 * One kind of notification the notifier delivers (CIBA pings, back-channel logout tokens): how it is named,
 * stored and sent. Each kind has its own key-value names, so the dispatchers of two kinds never take over
 * each other's records.
 */
export interface DeliveryKind<T> {
  /** Key-value prefix of this kind's schedule, records and claims (`ciba-ping`, `logout-notice`). */
  prefix: string;
  /** For logs: "ciba ping", "back-channel logout". */
  label: string;
  /** What a given-up delivery leaves the client, for the log. */
  givenUp: string;
  idOf(item: T): string;
  endpointOf(item: T): string;
  logFields(item: T): Record<string, unknown>;
  /** The item's protobuf message type (records are stored encoded). */
  codec: { encode(item: T): { finish(): Uint8Array }; decode(bytes: Uint8Array): T };
  /** The key-value key an attempt marks a delivered item under; a marked item (redelivered event) is skipped. */
  deliveredMark(item: T): string;
  /** Called once per accepted item (metrics). */
  accepted?(item: T): void;
  attempt(item: T, attempt: number, log: Logger): Promise<AttemptResult>;
}

export interface DeliveryOptions {
  /** Attempts per item, with exponential backoff from backoffMs between them. */
  attempts: number;
  backoffMs: number;
  /** Injected so tests do not wait for real backoff. */
  sleep?: (ms: number) => Promise<void>;
  /** Deliveries in flight at once per endpoint, and waiting per endpoint. */
  concurrencyPerEndpoint: number;
  maxWaitingPerEndpoint: number;
  /** A pending delivery nobody touched for this long is taken over (its notifier stopped). */
  reclaimAfterMs?: number;
  /** How often in-flight deliveries are touched and abandoned ones looked for. */
  sweepEveryMs?: number;
}

/** The endpoint's origin: the unit of isolation (one queue, its own concurrency). */
const endpointOrigin = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/**
 * Delivers notifications without letting one endpoint hold another's. `accept` makes an item durable (stored
 * and scheduled in the key-value store) and returns: the Kafka batch is committed then, not after delivery.
 * Each attempt runs in its endpoint's queue (EndpointQueues) with a short deadline; between attempts the item
 * leaves the queue (a timer), so backoff holds no slot either.
 *
 * At least once: a notifier that stops (or crashes) after the commit leaves its items scheduled; a running
 * notifier touches its own every sweep, and any notifier takes over those untouched for `reclaimAfterMs`
 * (claiming each once), so every accepted item is attempted. An item is sent twice only when a notifier dies
 * between the endpoint's 2xx and the delivered mark.
 */
export class DeliveryDispatcher<T> {
  private readonly queues: EndpointQueues;
  private readonly inFlight = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private sweeper: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly pending: string;
  private readonly recordKey: (id: string) => string;
  private readonly claimKey: (id: string) => string;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly logger: Logger,
    private readonly results: Counter<'result'>,
    private readonly kind: DeliveryKind<T>,
    private readonly opts: DeliveryOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.pending = `${kind.prefix}s:pending`;
    this.recordKey = (id) => `${kind.prefix}:${id}`;
    this.claimKey = (id) => `${kind.prefix}-claim:${id}`;
    this.queues = new EndpointQueues({
      concurrency: opts.concurrencyPerEndpoint,
      maxWaiting: opts.maxWaitingPerEndpoint,
      onDropped: (endpoint) => {
        this.logger.warn(
          { endpoint },
          `${kind.label} queue of an endpoint is full; its oldest item is given up`,
        );
      },
    });
  }

  /** Stores and schedules the item (durable once this resolves), then queues it; a delivered one is skipped. */
  async accept(item: T): Promise<void> {
    if (await this.kv.get(this.kind.deliveredMark(item))) {
      this.results.inc({ result: 'duplicate' });
      return;
    }
    const id = sha256(this.kind.idOf(item));
    if (this.inFlight.has(id)) return;
    const encoded = Buffer.from(this.kind.codec.encode(item).finish()).toString('base64');
    await this.kv.set(this.recordKey(id), encoded, { ttlMs: KEEP_MS });
    await this.kv.schedule(this.pending, id, this.now(), KEEP_MS);
    this.kind.accepted?.(item);
    this.run(id, item, 1);
  }

  /** Starts the sweeps: in-flight items are touched, abandoned ones taken over (also once right away). */
  start(): void {
    const every = this.opts.sweepEveryMs ?? 15_000;
    this.sweeper = setInterval(() => void this.sweep(), every);
    this.sweeper.unref();
    void this.sweep();
  }

  /** Stops taking work; attempts in flight finish (bounded by `waitMs`), retries wait for a successor. */
  async stop(waitMs = 5_000): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweeper);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.race([this.queues.idle(), new Promise((r) => setTimeout(r, waitMs).unref())]);
  }

  /** Touches this notifier's items and takes over the ones nobody touched for reclaimAfterMs. */
  async sweep(): Promise<void> {
    try {
      const now = this.now();
      for (const id of this.inFlight) await this.kv.schedule(this.pending, id, now, KEEP_MS);
      const reclaimAfter = this.opts.reclaimAfterMs ?? 60_000;
      for (const id of await this.kv.due(this.pending, now - reclaimAfter, 100)) {
        if (this.stopped || this.inFlight.has(id)) continue;
        if (!(await this.kv.set(this.claimKey(id), '1', { ttlMs: reclaimAfter, onlyIfAbsent: true })))
          continue;
        const encoded = await this.kv.get(this.recordKey(id));
        if (!encoded) {
          await this.kv.unschedule(this.pending, id);
          continue;
        }
        await this.kv.schedule(this.pending, id, now, KEEP_MS);
        this.logger.info({ id }, `${this.kind.label} taken over from a notifier that stopped`);
        this.run(id, this.kind.codec.decode(Buffer.from(encoded, 'base64')), 1);
      }
    } catch (err) {
      this.logger.warn({ err }, `${this.kind.label} sweep failed; the next one tries again`);
    }
  }

  private run(id: string, item: T, attempt: number): void {
    if (this.stopped) return;
    this.inFlight.add(id);
    const log = this.logger.child(this.kind.logFields(item));
    this.queues.push(
      endpointOrigin(this.kind.endpointOf(item)),
      async () => {
        const result = await this.kind.attempt(item, attempt, log);
        if (result === 'retry' && attempt < this.opts.attempts) {
          const backoffMs = this.opts.backoffMs * 2 ** (attempt - 1);
          const next = () => this.run(id, item, attempt + 1);
          if (this.opts.sleep) {
            void this.opts.sleep(backoffMs).then(next);
            return;
          }
          const timer = setTimeout(() => {
            this.timers.delete(timer);
            next();
          }, backoffMs);
          this.timers.add(timer);
          return;
        }
        if (result !== 'delivered') log.error(`${this.kind.label} given up; ${this.kind.givenUp}`);
        await this.finish(
          id,
          result === 'delivered' ? 'delivered' : result === 'unsafe' ? 'unsafe_endpoint' : 'failed',
        );
      },
      () => void this.finish(id, 'dropped'),
    );
  }

  private async finish(id: string, result: string): Promise<void> {
    this.inFlight.delete(id);
    this.results.inc({ result });
    await this.kv.unschedule(this.pending, id).catch(() => undefined);
    await this.kv.del(this.recordKey(id)).catch(() => undefined);
  }
}
