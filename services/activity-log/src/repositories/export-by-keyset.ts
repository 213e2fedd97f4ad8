import type { ActivityRecord } from '../domain/activity-record';
import { type FlowListQuery, snapshotFilter } from '../domain/flow-query';
import type { ExportQuery } from './activity-logs.repository';

/**
 * The export of an adapter whose listFlows pages by position (keyset): one query per batch, so memory holds
 * one batch, a record whose facts change meanwhile keeps its place (its timestamp is its flow's start), and
 * no server-side cursor has to live as long as the export. The Mongo and SQLite adapters share it.
 */
export async function* exportByKeyset(
  listFlows: (q: FlowListQuery) => Promise<ActivityRecord[]>,
  q: ExportQuery,
): AsyncIterable<ActivityRecord[]> {
  const filter = snapshotFilter(q.filter, q.snapshotAt);
  let after: FlowListQuery['after'];
  for (;;) {
    const batch = await listFlows({ tenantId: q.tenantId, filter, limit: q.batchSize, after });
    // Read before the yield: the batch is the consumer's, and ExportFlows empties it as it writes.
    const full = batch.length === q.batchSize;
    const last = batch[batch.length - 1];
    if (batch.length) yield batch;
    if (!full || !last) return;
    after = { timestamp: last.timestamp, id: last.id };
  }
}
