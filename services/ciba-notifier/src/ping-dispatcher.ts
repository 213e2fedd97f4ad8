import type { KeyValueStore } from '@sesame/kv';
import { type Logger, sha256 } from '@sesame/platform';
import { events } from '@sesame/proto';
import type { Counter } from 'prom-client';
import { EndpointQueues } from './endpoint-queues';
import { type PingOptions, attemptPing, countOutcome, deliveredMark } from './notify';

/** The schedule of pings not yet delivered or given up (member: the hash of the outcome id). */
const PENDING = 'ciba-pings:pending';
const recordKey = (id: string) => `ciba-ping:${id}`;
const claimKey = (id: string) => `ciba-ping-claim:${id}`;
const KEEP_MS = 24 * 3600 * 1000;

export interface DispatcherOptions {
  ping: PingOptions;
  /** Pings in flight at once per endpoint, and waiting per endpoint. */
  concurrencyPerEndpoint: number;
  maxWaitingPerEndpoint: number;
  /** A pending ping nobody touched for this long is taken over (its notifier stopped). */
  reclaimAfterMs?: number;
  /** How often in-flight pings are touched and abandoned ones looked for. */
  sweepEveryMs?: number;
}

/** The endpoint's origin: the unit of isolation (one queue, its own concurrency). */
const endpointOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/**
 * Delivers CIBA pings without letting one endpoint hold another's. `accept` makes a ping durable (its
 * outcome stored and scheduled in the key-value store) and returns: the Kafka batch is committed then, not
 * after delivery. Each attempt runs in its endpoint's queue (EndpointQueues) with a short deadline; between
 * attempts the ping leaves the queue (a timer), so backoff holds no slot either.
 *
 * At least once: a notifier that stops (or crashes) after the commit leaves its pings scheduled; a running
 * notifier touches its own every sweep, and any notifier takes over those untouched for `reclaimAfterMs`
 * (claiming each once), so every accepted ping is attempted. A ping is sent twice only when a notifier dies
 * between the endpoint's 2xx and the delivered mark; a ping is idempotent for the client (it polls /token).
 */
export class PingDispatcher {
  private readonly queues: EndpointQueues;
  private readonly inFlight = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private sweeper: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly logger: Logger,
    private readonly results: Counter<'result'>,
    private readonly opts: DispatcherOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.queues = new EndpointQueues({
      concurrency: opts.concurrencyPerEndpoint,
      maxWaiting: opts.maxWaitingPerEndpoint,
      onDropped: (endpoint) => {
        this.logger.warn({ endpoint }, 'ciba ping queue of an endpoint is full; its oldest ping is given up');
      },
    });
  }

  /** Stores and schedules the ping (durable once this resolves), then queues it; a delivered one is skipped. */
  async accept(outcome: events.CibaOutcome): Promise<void> {
    if (await this.kv.get(deliveredMark(outcome.outcomeId))) {
      this.results.inc({ result: 'duplicate' });
      return;
    }
    const id = sha256(outcome.outcomeId);
    if (this.inFlight.has(id)) return;
    const encoded = Buffer.from(events.CibaOutcome.encode(outcome).finish()).toString('base64');
    await this.kv.set(recordKey(id), encoded, { ttlMs: KEEP_MS });
    await this.kv.schedule(PENDING, id, this.now(), KEEP_MS);
    countOutcome(outcome);
    this.run(id, outcome, 1);
  }

  /** Starts the sweeps: in-flight pings are touched, abandoned ones taken over (also once right away). */
  start(): void {
    const every = this.opts.sweepEveryMs ?? 15_000;
    this.sweeper = setInterval(() => void this.sweep(), every);
    this.sweeper.unref();
    void this.sweep();
  }

  /** Stops taking work; pings in flight finish their attempt (bounded by `waitMs`), retries wait for a successor. */
  async stop(waitMs = 5_000): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweeper);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.race([this.queues.idle(), new Promise((r) => setTimeout(r, waitMs).unref())]);
  }

  /** Touches this notifier's pings and takes over the ones nobody touched for reclaimAfterMs. */
  async sweep(): Promise<void> {
    try {
      const now = this.now();
      for (const id of this.inFlight) await this.kv.schedule(PENDING, id, now, KEEP_MS);
      const reclaimAfter = this.opts.reclaimAfterMs ?? 60_000;
      for (const id of await this.kv.due(PENDING, now - reclaimAfter, 100)) {
        if (this.stopped || this.inFlight.has(id)) continue;
        if (!(await this.kv.set(claimKey(id), '1', { ttlMs: reclaimAfter, onlyIfAbsent: true }))) continue;
        const encoded = await this.kv.get(recordKey(id));
        if (!encoded) {
          await this.kv.unschedule(PENDING, id);
          continue;
        }
        await this.kv.schedule(PENDING, id, now, KEEP_MS);
        this.logger.info({ id }, 'ciba ping taken over from a notifier that stopped');
        this.run(id, events.CibaOutcome.decode(Buffer.from(encoded, 'base64')), 1);
      }
    } catch (err) {
      this.logger.warn({ err }, 'ciba ping sweep failed; the next one tries again');
    }
  }

  private run(id: string, outcome: events.CibaOutcome, attempt: number): void {
    if (this.stopped) return;
    this.inFlight.add(id);
    const log = this.logger.child({ outcomeId: outcome.outcomeId, clientId: outcome.clientId });
    this.queues.push(
      endpointOf(outcome.notificationEndpoint),
      async () => {
        const result = await attemptPing(outcome, attempt, this.kv, log, this.opts.ping);
        if (result === 'retry' && attempt < this.opts.ping.attempts) {
          const backoffMs = this.opts.ping.backoffMs * 2 ** (attempt - 1);
          const next = () => this.run(id, outcome, attempt + 1);
          if (this.opts.ping.sleep) {
            void this.opts.ping.sleep(backoffMs).then(next);
            return;
          }
          const timer = setTimeout(() => {
            this.timers.delete(timer);
            next();
          }, backoffMs);
          this.timers.add(timer);
          return;
        }
        if (result !== 'delivered') log.error('ciba ping given up; the client can still poll /token');
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
    await this.kv.unschedule(PENDING, id).catch(() => undefined);
    await this.kv.del(recordKey(id)).catch(() => undefined);
  }
}
