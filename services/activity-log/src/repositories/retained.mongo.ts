import type { Logger } from '@sesame/platform';
import type { Connection, Model, Schema } from 'mongoose';
import { buildIndexes } from './indexes.mongo';

export interface RetentionOptions {
  retentionDays: number;
  logger: Logger;
}

/** A repository as opened, and the indexes the server refused (buildIndexes). */
export interface Opened<R> {
  repository: R;
  refusedIndexes: string[];
}

/**
 * A collection of records kept for a retention period after their time: each has an expireAt, which a TTL
 * index expires, or purgeExpired where the server has no TTL indexes.
 */
export abstract class RetainedCollection<D> {
  protected constructor(
    readonly model: Model<D>,
    private readonly retentionMs: number,
  ) {}

  /** When a record of this time (epoch ms) expires. */
  protected expiresAt(timestamp: number): Date {
    return new Date(timestamp + this.retentionMs);
  }

  /** Deletes expired records: retention on a server without TTL indexes. */
  async purgeExpired(now: number): Promise<number> {
    const res = await this.model.collection.deleteMany({ expireAt: { $lt: new Date(now) } });
    return res.deletedCount;
  }
}

/**
 * Opens a retained collection's repository: the model `name` of `schema` on this connection (registered once
 * per connection), its indexes built (buildIndexes), and `make` given the model and the retention in ms.
 */
export async function openRetained<D, R>(
  conn: Connection,
  name: string,
  schema: Schema<D>,
  opts: RetentionOptions,
  make: (model: Model<D>, retentionMs: number) => R,
): Promise<Opened<R>> {
  const model = (conn.models[name] ?? conn.model<D>(name, schema)) as Model<D>;
  const refusedIndexes = await buildIndexes(schema, model.collection, opts.logger);
  return { repository: make(model, opts.retentionDays * 86_400_000), refusedIndexes };
}
