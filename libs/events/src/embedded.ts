import type { EmbeddedStore, Migration, TurnWriter } from '@sesame/embedded-store';
import { MemoryEventBus } from './memory';
import type {
  BatchHandler,
  ConsumerOptions,
  DeliveredEvent,
  EventBus,
  EventConsumer,
  OutgoingEvent,
} from './port';

const MIGRATIONS: readonly Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE events_outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, topic TEXT NOT NULL, key TEXT NOT NULL,
        value BLOB NOT NULL, headers TEXT NOT NULL, at INTEGER NOT NULL) STRICT;
    `),
];

export interface EmbeddedEventBusOptions {
  /** Newest events kept in memory per partition once every running group has them (MemoryEventBus). */
  retainedEvents?: number;
  /** How far a running group may fall behind a topic before publishes to it wait, and how long (PublishGate). */
  maxConsumerLag?: number;
  publishWaitMaxMs?: number;
  /** How long an event no durable group owes stays in the outbox (sweep). */
  unclaimedRetentionMs?: number;
}

/** As a broker's default log retention: 7 days. */
export const DEFAULT_UNCLAIMED_RETENTION_MS = 7 * 86_400_000;
const SWEEP_EVERY_MS = 3_600_000;
/** How long acknowledged events wait for another write to take their deletion along (rideNextTurn). */
const ACK_LINGER_MS = 500;

/**
 * The value as better-sqlite3 binds a BLOB (it copies the bytes itself): a Buffer over the same memory, not a
 * copy of it. Buffer.from(Uint8Array) copied every event's bytes once more.
 */
const asBuffer = (value: Uint8Array): Buffer =>
  Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);

/** A publish waiting for the next write. */
interface Queued {
  topic: string;
  events: OutgoingEvent[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** An event still in the outbox: the groups that have yet to acknowledge it. */
interface Outstanding {
  seq: number;
  event: DeliveredEvent;
  owedTo: Set<string>;
}

/**
 * The embedded default's event bus: the in-memory bus (partitions, groups, offsets, in-process delivery)
 * with a durable outbox on the engine. A publish writes its events to `events_outbox` before it resolves
 * (the publishes of one turn of the event loop in one transaction), then delivers them as the memory bus
 * does; an event leaves the outbox once every durable group that owes it has committed it (deleted with the
 * next write). On open, the events still in the outbox are delivered again,
 * in publish order: a process killed between a publish and a consumer's commit loses nothing, and the
 * consumers de-duplicate (activity-log by event id).
 *
 * Which groups owe an event: the non-ephemeral groups with a running member on its topic when it is
 * published, and a group that starts later from the beginning (or from a committed offset before it). An
 * event published while no such group runs stays in the outbox until one starts and commits it, or until the
 * next start delivers it again; one no durable group owes is deleted after the unclaimed retention (7 days).
 * Ephemeral groups (one per member, e.g. cache eviction) never hold an event.
 */
export class EmbeddedEventBus extends MemoryEventBus {
  private readonly outstanding = new Map<DeliveredEvent, Outstanding>();
  /** topic → group → running members. */
  private readonly running = new Map<string, Map<string, number>>();
  private readonly sql;
  private queued: Queued[] = [];
  private acknowledged: number[] = [];
  /** What the turn's transaction holds of this bus, until it committed. */
  private writing: { queued: Queued[]; acknowledged: number[]; at: number; seqs: number[][] } | undefined;
  private readonly writer: TurnWriter = {
    write: () => this.writeTurn(),
    committed: () => this.committedTurn(),
    failed: (err) => this.failedTurn(err),
  };
  private readonly unclaimedRetentionMs: number;
  private readonly sweeper: NodeJS.Timeout;
  /** Writes the acknowledgements if no other write took them along within ACK_LINGER_MS. */
  private ackTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: EmbeddedStore,
    options: EmbeddedEventBusOptions = {},
  ) {
    super(options);
    this.unclaimedRetentionMs = options.unclaimedRetentionMs ?? DEFAULT_UNCLAIMED_RETENTION_MS;
    store.migrate('events.outbox', MIGRATIONS);
    const db = store.db;
    this.sql = {
      insert: db.prepare<[string, string, Buffer, string, number]>(
        'INSERT INTO events_outbox (topic, key, value, headers, at) VALUES (?, ?, ?, ?, ?)',
      ),
      remove: db.prepare<[number]>('DELETE FROM events_outbox WHERE seq = ?'),
    };
    const rows = db
      .prepare<[], { seq: number; topic: string; key: string; value: Buffer; headers: string; at: number }>(
        'SELECT seq, topic, key, value, headers, at FROM events_outbox ORDER BY seq',
      )
      .iterate();
    for (const row of rows) {
      const headers = JSON.parse(row.headers) as Record<string, string>;
      const event = this.append(row.topic, { key: row.key, value: row.value, headers }, row.at);
      this.outstanding.set(event, { seq: row.seq, event, owedTo: new Set() });
    }
    this.sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  /**
   * Deletes the events older than the unclaimed retention that no durable group owes: events of a topic no
   * durable group reads (dead letters in the embedded default), which would otherwise stay, and be loaded at
   * every start, for ever. An event a group owes stays however old it is. Returns how many went.
   */
  sweep(now = Date.now()): number {
    const gone: Outstanding[] = [];
    for (const entry of this.outstanding.values()) {
      if (entry.owedTo.size === 0 && entry.event.timestamp < now - this.unclaimedRetentionMs)
        gone.push(entry);
    }
    for (const entry of gone) {
      this.outstanding.delete(entry.event);
      this.acknowledged.push(entry.seq);
    }
    if (gone.length) this.scheduleWrite();
    return gone.length;
  }

  /** Events in the outbox now (tests, diagnostics). */
  outboxSize(): number {
    return this.outstanding.size;
  }

  /**
   * Queued for the next write: publishes in one turn of the event loop share one transaction (a group
   * commit), and each resolves once that transaction has committed.
   */
  protected override accept(topic: string, events: OutgoingEvent[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ topic, events, resolve, reject });
      this.scheduleWrite();
    }).then(() => this.whenCaughtUp(topic));
  }

  override commit(groupId: string, batch: DeliveredEvent[]): void {
    super.commit(groupId, batch);
    for (const event of batch) {
      const entry = this.outstanding.get(event);
      if (!entry?.owedTo.delete(groupId) || entry.owedTo.size > 0) continue;
      this.outstanding.delete(event);
      this.acknowledged.push(entry.seq);
    }
    // Deleted with the next write of anyone on the engine (EmbeddedStore.rideNextTurn), or after
    // ACK_LINGER_MS if nothing writes: until then a crash only delivers these again (consumers are idempotent).
    // A commit of their own cost one engine commit per acknowledging consumer batch, about a third of the
    // commits of a sign-in.
    if (this.acknowledged.length) this.rideAlong();
  }

  private rideAlong(): void {
    this.store.rideNextTurn(this.writer);
    this.ackTimer ??= setTimeout(() => {
      this.ackTimer = undefined;
      if (this.acknowledged.length) this.scheduleWrite();
    }, ACK_LINGER_MS);
    this.ackTimer.unref();
  }

  private scheduleWrite(): void {
    this.store.joinTurn(this.writer);
  }

  /** In the engine's turn transaction (EmbeddedStore.joinTurn): the acknowledged events out, the queued in. */
  private writeTurn(): void {
    // Asked again after a rollback (TurnWriter.write): the same events once more.
    this.writing ??= {
      queued: this.queued.splice(0),
      acknowledged: this.acknowledged.splice(0),
      at: Date.now(),
      seqs: [],
    };
    const { queued, acknowledged, at } = this.writing;
    for (const seq of acknowledged) this.sql.remove.run(seq);
    this.writing.seqs = queued.map((q) =>
      q.events.map((e) =>
        Number(
          this.sql.insert.run(q.topic, e.key, asBuffer(e.value), JSON.stringify(e.headers ?? {}), at)
            .lastInsertRowid,
        ),
      ),
    );
  }

  /** Committed: delivery, then the answers. */
  private committedTurn(): void {
    const { queued, at, seqs } = this.writing ?? { queued: [], at: 0, seqs: [] };
    this.writing = undefined;
    queued.forEach((q, i) => {
      const groups = [...(this.running.get(q.topic)?.keys() ?? [])];
      q.events.forEach((e, k) => {
        const event = this.append(q.topic, e, at);
        this.outstanding.set(event, { seq: seqs[i]![k]!, event, owedTo: new Set(groups) });
      });
    });
    if (queued.length) this.wakeAll();
    for (const q of queued) q.resolve();
  }

  /** Undone: the publishes are refused, the acknowledgements wait for the next write. */
  private failedTurn(err: unknown): void {
    const { queued, acknowledged } = this.writing ?? { queued: this.queued.splice(0), acknowledged: [] };
    this.writing = undefined;
    this.acknowledged.unshift(...acknowledged);
    if (this.acknowledged.length && this.store.db.open) this.rideAlong();
    for (const q of queued) q.reject(err);
  }

  override async close(): Promise<void> {
    clearInterval(this.sweeper);
    clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    if (this.queued.length || this.acknowledged.length) {
      if (this.store.db.open) this.store.commitTurn();
      else this.failedTurn(new Error('the embedded store is closed'));
    }
    await super.close();
  }

  override consumer(options: ConsumerOptions): EventConsumer {
    const member = super.consumer(options);
    if (options.ephemeral) return member;
    let joined = false;
    return {
      start: async (handler: BatchHandler) => {
        this.join(options);
        joined = true;
        try {
          await member.start(handler);
        } catch (err) {
          this.leave(options);
          joined = false;
          throw err;
        }
      },
      stop: async () => {
        await member.stop();
        if (joined) this.leave(options);
        joined = false;
      },
    };
  }

  /** A durable group starts: it owes what is published from now on, and what it will read of the outbox. */
  private join({ groupId, topics, fromBeginning = true }: ConsumerOptions): void {
    for (const topic of topics) {
      const members = this.running.get(topic) ?? new Map<string, number>();
      members.set(groupId, (members.get(groupId) ?? 0) + 1);
      this.running.set(topic, members);
    }
    for (const entry of this.outstanding.values()) {
      const { topic, partition, offset } = entry.event;
      if (!topics.includes(topic)) continue;
      const committed = this.offsetsOf(groupId, topic)?.[partition];
      if (committed === undefined ? fromBeginning : Number(offset) >= committed) entry.owedTo.add(groupId);
    }
  }

  /** A member leaves: events published from now on are not owed to its group (those owed already stay). */
  private leave({ groupId, topics }: ConsumerOptions): void {
    for (const topic of topics) {
      const members = this.running.get(topic);
      const left = (members?.get(groupId) ?? 0) - 1;
      if (left > 0) members?.set(groupId, left);
      else members?.delete(groupId);
    }
  }
}

/**
 * The event bus of the embedded default: durable on the engine the launcher opened (one per process, shared
 * by every service). The engine stays the caller's to close, after the bus.
 */
export function createEmbeddedEventBus(
  engine: EmbeddedStore,
  options: EmbeddedEventBusOptions = {},
): EventBus {
  return new EmbeddedEventBus(engine, options);
}
