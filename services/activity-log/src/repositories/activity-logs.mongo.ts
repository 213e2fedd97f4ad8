import type { FlowEventFacts } from '@sesame/flow-events';
import { type AnyBulkWriteOperation, type Connection, Schema } from 'mongoose';
import {
  type ActivityLogQuery,
  type ActivityRecord,
  type FlowState,
  type RecordField,
  recordFields,
} from '../domain/activity-record';
import {
  type EraseTarget,
  type FlowListFilter,
  type FlowListQuery,
  flowFilterFields,
} from '../domain/flow-query';
import { flowKey, foldFlow, groupByFlow } from '../domain/fold';
import { type ActivityLogRepository, type ExportQuery, prefixEnd } from './activity-logs.repository';
import { exportByKeyset } from './export-by-keyset';
import { duplicateKeyFailures } from './indexes.mongo';
import { type Opened, RetainedCollection, type RetentionOptions, openRetained } from './retained.mongo';

interface ActivityLogDoc extends Omit<ActivityRecord, 'id'> {
  flowId: string;
  versions: FlowState['versions'];
  /** Optimistic-concurrency guard: bumped on every write of the document. */
  rev: number;
  /** Retention: the TTL index deletes the record once this passes. */
  expireAt: Date;
}

const { Mixed } = Schema.Types;
const schema = new Schema<ActivityLogDoc>(
  {
    tenantId: { type: String, required: true },
    flowId: { type: String, required: true },
    appId: { type: String, required: true },
    timestamp: { type: Number, required: true },
    ...Object.fromEntries(recordFields.map((f) => [f, Mixed])),
    events: [Mixed],
    versions: Mixed,
    rev: Number,
    expireAt: Date,
  },
  { collection: 'activity_logs', versionKey: false, autoIndex: false, strict: false },
);
// The sort key ends with flowId so that pages are stable; each index serves one query shape of spec 4.6.
schema.index({ tenantId: 1, flowId: 1 }, { unique: true });
schema.index({ tenantId: 1, appId: 1, timestamp: -1, flowId: -1 });
schema.index({ tenantId: 1, appId: 1, userId: 1, timestamp: -1, flowId: -1 });
schema.index({ tenantId: 1, appId: 1, userAlias: 1, timestamp: -1, flowId: -1 });
// Support's listings (query-shapes.ts): the tenant's flows, a person's flows, flows by status.
schema.index({ tenantId: 1, timestamp: -1, flowId: -1 });
schema.index({ tenantId: 1, userId: 1, timestamp: -1, flowId: -1 });
schema.index({ tenantId: 1, status: 1, timestamp: -1, flowId: -1 });
schema.index({ tenantId: 1, appId: 1, status: 1, timestamp: -1, flowId: -1 });
// An address's attempts, account or not (issue 38): listed, counted and erased by it.
schema.index({ tenantId: 1, attemptedEmail: 1, timestamp: -1, flowId: -1 });
schema.index({ expireAt: 1 }, { expireAfterSeconds: 0 });

/** The declared indexes' keys (the index test checks every query shape against them). */
export const activityLogIndexes = (): Record<string, 1 | -1>[] =>
  schema.indexes().map(([fields]) => fields as Record<string, 1 | -1>);

const READ_PROJECTION = { _id: 0, versions: 0, rev: 0, expireAt: 0 } as const;
const MAX_ATTEMPTS = 5;
/**
 * Writes of one batch go out in bulkWrites of at most this many operations: FerretDB 1.24 never answers an
 * update command of 100 or more statements (measured), and smaller commands cost MongoDB nothing noticeable.
 */
const MAX_OPS_PER_WRITE = 50;

function recordOf(doc: Omit<ActivityLogDoc, 'versions' | 'rev' | 'expireAt'>): ActivityRecord {
  const { flowId, tenantId, appId, timestamp, events } = doc;
  const record: ActivityRecord = { id: flowId, tenantId, appId, timestamp, events };
  for (const f of recordFields) {
    const v = (doc as Record<RecordField, unknown>)[f];
    if (v !== undefined && v !== null) (record as Record<RecordField, unknown>)[f] = v;
  }
  return record;
}

/**
 * Records in Mongo. A batch is one read of the flows it touches plus one unordered bulkWrite: the fold runs
 * here (FerretDB 1.x has no pipeline updates to do it server-side), and every write is guarded by `rev`, so a
 * second writer of the same flow (only possible while a partition moves between consumers) makes the guarded
 * write fail on the unique (tenantId, flowId) index; those flows are re-read and folded again.
 */
export class MongoActivityLogRepository
  extends RetainedCollection<ActivityLogDoc>
  implements ActivityLogRepository
{
  static open(conn: Connection, opts: RetentionOptions): Promise<Opened<MongoActivityLogRepository>> {
    return openRetained(conn, 'ActivityLog', schema, opts, (m, ms) => new MongoActivityLogRepository(m, ms));
  }

  async applyFlowEvents(events: FlowEventFacts[]): Promise<void> {
    let pending = groupByFlow(events);
    for (let attempt = 1; pending.size > 0; attempt++) {
      if (attempt > MAX_ATTEMPTS) throw new Error(`flows still contended after ${MAX_ATTEMPTS} attempts`);
      pending = await this.applyOnce(pending);
    }
  }

  /** Returns the groups whose guarded write lost a race. */
  private async applyOnce(groups: Map<string, FlowEventFacts[]>): Promise<Map<string, FlowEventFacts[]>> {
    const stored = await this.load(groups);
    const ops: AnyBulkWriteOperation<ActivityLogDoc>[] = [];
    const opKeys: string[] = [];
    for (const [key, group] of groups) {
      const current = stored.get(key);
      const next = foldFlow(current?.state, group);
      if (!next) continue;
      const { id, ...record } = next.record;
      const doc = {
        ...record,
        flowId: id,
        versions: next.versions,
        expireAt: this.expiresAt(record.timestamp),
      };
      opKeys.push(key);
      if (!current) ops.push({ insertOne: { document: { ...doc, rev: 1 } } });
      else
        ops.push({
          updateOne: {
            filter: { tenantId: record.tenantId, flowId: id, rev: current.rev },
            update: { $set: { ...doc, rev: current.rev + 1 }, ...unsetMissing(doc) },
            upsert: true, // a moved-on rev makes this an insert, which the unique index refuses
          },
        });
    }
    if (!ops.length) return new Map();
    const lost: number[] = [];
    for (let from = 0; from < ops.length; from += MAX_OPS_PER_WRITE) {
      try {
        await this.model.collection.bulkWrite(ops.slice(from, from + MAX_OPS_PER_WRITE) as never, {
          ordered: false,
        });
      } catch (err) {
        lost.push(...duplicateKeyFailures(err).map((i) => from + i));
      }
    }
    return new Map(lost.map((i) => [opKeys[i]!, groups.get(opKeys[i]!)!]));
  }

  private async load(
    groups: Map<string, FlowEventFacts[]>,
  ): Promise<Map<string, { state: FlowState; rev: number }>> {
    const byTenant = new Map<string, string[]>();
    for (const group of groups.values()) {
      const { tenantId, flowId } = group[0]!;
      byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), flowId]);
    }
    const clauses = [...byTenant].map(([tenantId, flowIds]) => ({ tenantId, flowId: { $in: flowIds } }));
    const filter = clauses.length === 1 ? clauses[0]! : { $or: clauses };
    const docs = await this.model.collection.find(filter, { projection: { _id: 0, expireAt: 0 } }).toArray();
    const out = new Map<string, { state: FlowState; rev: number }>();
    for (const raw of docs) {
      const { versions, rev, ...doc } = raw as unknown as ActivityLogDoc;
      out.set(flowKey(doc.tenantId, doc.flowId), {
        state: { record: recordOf(doc), versions: versions ?? {} },
        rev,
      });
    }
    return out;
  }

  async query(q: ActivityLogQuery): Promise<ActivityRecord[]> {
    const filter: Record<string, unknown> = {
      tenantId: q.tenantId,
      appId: q.appId,
      timestamp: { $gte: q.timeStart, $lt: q.timeEnd },
    };
    if (q.userId !== undefined) filter.userId = q.userId;
    if (q.userAlias !== undefined) filter.userAlias = q.userAlias;
    const docs = await this.model.collection
      .find(filter, { projection: READ_PROJECTION })
      .sort({ timestamp: -1, flowId: -1 })
      .skip(q.skip)
      .limit(q.pageSize)
      .toArray();
    return docs.map((d) => recordOf(d as unknown as ActivityLogDoc));
  }

  async listFlows(q: FlowListQuery): Promise<ActivityRecord[]> {
    const docs = await this.model.collection
      .find(flowListFilter(q), { projection: READ_PROJECTION })
      .sort({ timestamp: -1, flowId: -1 })
      .limit(q.limit)
      .toArray();
    return docs.map((d) => recordOf(d as unknown as ActivityLogDoc));
  }

  async getFlow(tenantId: string, flowId: string): Promise<ActivityRecord | undefined> {
    const doc = await this.model.collection.findOne({ tenantId, flowId }, { projection: READ_PROJECTION });
    return doc ? recordOf(doc as unknown as ActivityLogDoc) : undefined;
  }

  exportFlows(q: ExportQuery): AsyncIterable<ActivityRecord[]> {
    return exportByKeyset((query) => this.listFlows(query), q);
  }

  async countFlows(tenantId: string, filter: FlowListFilter): Promise<number> {
    return this.model.collection.countDocuments(flowListFilter({ tenantId, filter, limit: 0 }));
  }

  /** One seek per address on the { tenantId, attemptedEmail, … } index (a distinct would read every match). */
  async attemptedEmails(tenantId: string, prefix: string, limit: number): Promise<string[]> {
    const found: string[] = [];
    const end = prefixEnd(prefix);
    while (found.length < limit) {
      const low = found.length ? { $gt: found.at(-1)! } : { $gte: prefix };
      const [doc] = await this.model.collection
        .find(
          { tenantId, attemptedEmail: { ...low, $lt: end } },
          { projection: { _id: 0, attemptedEmail: 1 } },
        )
        .sort({ attemptedEmail: 1 })
        .limit(1)
        .toArray();
      if (!doc) break;
      found.push(doc.attemptedEmail as string);
    }
    return found;
  }

  /** Two deletes, each on its own index (an $or would need both to be planned as one). */
  async eraseFlows(tenantId: string, target: EraseTarget): Promise<number> {
    let erased = 0;
    if (target.userId !== undefined)
      erased += (await this.model.collection.deleteMany({ tenantId, userId: target.userId })).deletedCount;
    if (target.attemptedEmail !== undefined)
      erased += (await this.model.collection.deleteMany({ tenantId, attemptedEmail: target.attemptedEmail }))
        .deletedCount;
    return erased;
  }
}

/**
 * The Mongo filter of a support listing: the equality members (flowListShape names which the index serves),
 * the time range, and the position after the previous page's last record.
 */
function flowListFilter({ tenantId, filter: f, after }: FlowListQuery): Record<string, unknown> {
  const filter: Record<string, unknown> = { tenantId };
  for (const field of flowFilterFields) {
    if (f[field] !== undefined) filter[field] = f[field];
  }
  const timestamp: Record<string, number> = {};
  if (f.from !== undefined) timestamp.$gte = f.from;
  if (f.to !== undefined) timestamp.$lt = f.to;
  if (after) {
    timestamp.$lte = Math.min(after.timestamp, timestamp.$lt ?? Number.POSITIVE_INFINITY);
    filter.$or = [{ timestamp: { $lt: after.timestamp } }, { flowId: { $lt: after.id } }];
  }
  if (Object.keys(timestamp).length) filter.timestamp = timestamp;
  return filter;
}

/** The record facts the fold left out (e.g. a failure reason a later success made stale): $set keeps them. */
function unsetMissing(doc: Partial<Record<RecordField, unknown>>): { $unset?: Record<string, ''> } {
  const missing = recordFields.filter((f) => doc[f] === undefined);
  return missing.length ? { $unset: Object.fromEntries(missing.map((f) => [f, ''] as const)) } : {};
}
