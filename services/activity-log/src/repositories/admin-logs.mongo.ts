import { type Connection, Schema } from 'mongoose';
import type { AdminLogEntry, AdminLogPage, AdminLogQuery } from '../domain/activity-record';
import type { AdminLogRepository } from './admin-logs.repository';
import { duplicateKeyFailures } from './indexes.mongo';
import { type Opened, RetainedCollection, type RetentionOptions, openRetained } from './retained.mongo';

interface AdminLogDoc extends AdminLogEntry {
  expireAt: Date;
}

const schema = new Schema<AdminLogDoc>(
  {
    tenantId: { type: String, required: true },
    id: { type: String, required: true },
    activityType: String,
    adminEmail: String,
    clientIp: String,
    sessionId: String,
    timestamp: { type: Number, required: true },
    data: Schema.Types.Mixed,
    expireAt: Date,
  },
  { collection: 'admin_logs', versionKey: false, autoIndex: false },
);
schema.index({ tenantId: 1, id: 1 }, { unique: true });
schema.index({ tenantId: 1, timestamp: -1, id: -1 });
schema.index({ expireAt: 1 }, { expireAfterSeconds: 0 });

/** Admin events in Mongo: inserted with $setOnInsert keyed by (tenantId, id), so a redelivery changes nothing. */
export class MongoAdminLogRepository extends RetainedCollection<AdminLogDoc> implements AdminLogRepository {
  static open(conn: Connection, opts: RetentionOptions): Promise<Opened<MongoAdminLogRepository>> {
    return openRetained(conn, 'AdminLog', schema, opts, (m, ms) => new MongoAdminLogRepository(m, ms));
  }

  async append(events: AdminLogEntry[]): Promise<void> {
    // At most 50 statements per command: FerretDB 1.24 never answers an update command of 100 or more.
    for (let from = 0; from < events.length; from += 50) {
      const write = this.model.collection.bulkWrite(
        events.slice(from, from + 50).map((e) => ({
          updateOne: {
            filter: { tenantId: e.tenantId, id: e.id },
            update: { $setOnInsert: { ...e, expireAt: this.expiresAt(e.timestamp) } },
            upsert: true,
          },
        })),
        { ordered: false },
      );
      // Two writers upserting the same new id: the loser's duplicate-key error means the event is stored.
      await write.catch(duplicateKeyFailures);
    }
  }

  async query(q: AdminLogQuery): Promise<AdminLogPage> {
    const filter = { tenantId: q.tenantId, timestamp: { $gte: q.fromTime, $lt: q.toTime } };
    const [docs, total] = await Promise.all([
      this.model.collection
        .find(filter, { projection: { _id: 0, expireAt: 0 } })
        .sort({ timestamp: -1, id: -1 })
        .skip(q.skip)
        .limit(q.take)
        .toArray(),
      this.model.collection.countDocuments(filter),
    ]);
    return { events: docs as unknown as AdminLogEntry[], total };
  }
}
