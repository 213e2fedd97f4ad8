import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { Outbox, type OutboxRecord } from './outbox';
import type { EventPublisher } from './port';

export interface AdoptionOptions {
  /** Holds one outbox directory per pod (the shared volume). */
  sharedDir: string;
  /** This pod's directory name under sharedDir (the pod name). */
  own: string;
  /** The outbox's name inside each directory (the bus clientId). */
  outboxName: string;
  /** A directory whose lease is older than this belongs to a pod that is gone. */
  leaseMs: number;
  publisher: EventPublisher;
  logger: Logger;
}

/**
 * Events buffered during a Kafka outage must outlive their pod: each pod keeps its outbox in its own
 * directory on a volume every pod of the service shares, and renews a lease file there. A directory whose
 * lease has lapsed belongs to a pod that was deleted, rolled or scaled in: another pod claims it with an
 * atomic rename (one claimant wins), republishes its records through its own publisher (to Kafka, or into
 * its own outbox while Kafka is down), then removes it. A claimant that dies mid-way leaves the claimed
 * directory with a lapsing lease, so it is adopted again (delivery is at least once; consumers de-duplicate).
 */
export class OutboxAdoption {
  private timers: NodeJS.Timeout[] = [];
  private running: Promise<number> | undefined;

  constructor(private readonly opts: AdoptionOptions) {
    mkdirSync(this.ownDir, { recursive: true });
    this.renew();
  }

  get ownDir(): string {
    return join(this.opts.sharedDir, this.opts.own);
  }

  /** Renews the lease now and every third of it; adopts lapsed outboxes now and every lease period. */
  start(): void {
    const renew = setInterval(() => this.renew(), Math.max(100, this.opts.leaseMs / 3));
    const adopt = setInterval(() => void this.adoptOnce(), this.opts.leaseMs);
    this.timers = [renew, adopt];
    for (const t of this.timers) t.unref();
    void this.adoptOnce();
  }

  stop(): Promise<unknown> {
    for (const t of this.timers) clearInterval(t);
    return this.running ?? Promise.resolve();
  }

  /** Adopts every lapsed outbox; resolves with the number of events republished. */
  adoptOnce(): Promise<number> {
    this.running ??= this.adoptLapsed().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private renew(): void {
    const lease = join(this.ownDir, 'lease');
    const now = new Date();
    try {
      utimesSync(lease, now, now);
    } catch {
      writeFileSync(lease, this.opts.own);
    }
  }

  private async adoptLapsed(): Promise<number> {
    let adopted = 0;
    const entries = await readdir(this.opts.sharedDir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === this.opts.own) continue;
      const dir = join(this.opts.sharedDir, entry.name);
      const renewed = await stat(join(dir, 'lease')).then(
        (s) => s.mtimeMs,
        () => 0,
      );
      if (Date.now() - renewed < this.opts.leaseMs) continue;
      const claimed = join(this.opts.sharedDir, `.adopted-by-${this.opts.own}-${Date.now()}-${entry.name}`);
      try {
        await rename(dir, claimed);
        const now = new Date();
        await utimes(join(claimed, 'lease'), now, now).catch(() => writeFileSync(join(claimed, 'lease'), ''));
      } catch {
        continue; // another pod claimed it first
      }
      try {
        adopted += await this.republish(claimed);
        await rm(claimed, { recursive: true, force: true });
      } catch (err) {
        this.opts.logger.warn({ err, dir: claimed }, 'adopting an outbox failed; it is retried later');
      }
    }
    return adopted;
  }

  private async republish(dir: string): Promise<number> {
    // The claim (rename) made this process the owner; the old lock names a process of another pod.
    await rm(join(dir, `${this.opts.outboxName.replace(/[^\w.-]/g, '_')}.lock`), { force: true });
    const box = await Outbox.open(dir, this.opts.outboxName);
    const records = box.peek(Number.MAX_SAFE_INTEGER);
    await box.close();
    if (!records.length) return 0;
    this.opts.logger.warn({ from: dir, events: records.length }, 'adopting the outbox of a pod that is gone');
    // Consecutive records of one topic go out together, in order.
    for (let i = 0; i < records.length; ) {
      const topic = records[i]!.topic;
      const run: OutboxRecord[] = [];
      while (i < records.length && records[i]!.topic === topic) run.push(records[i++]!);
      await this.opts.publisher.publish(
        topic,
        run.map((r) => ({ key: r.key, value: r.value, headers: r.headers })),
      );
    }
    return records.length;
  }
}
