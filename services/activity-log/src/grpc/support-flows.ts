import type { ServerWritableStream } from '@grpc/grpc-js';
import { type Clock, GrpcError, GrpcStatus, type Logger } from '@sesame/platform';
import { activitylogs } from '@sesame/proto';
import type { ActivityRecord } from '../domain/activity-record';
import { type FlowListFilter, decodeCursor, encodeCursor, flowFilterFields } from '../domain/flow-query';
import type { ActivityLogRepository } from '../repositories/activity-logs.repository';
import { supportRecordToProto } from './to-proto';

export const invalid = (message: string) => new GrpcError(GrpcStatus.INVALID_ARGUMENT, message);
export const MAX_TEXT = 200;
export const supportLimits = { defaultLimit: 50, maxLimit: 200, exportBatch: 500, exportChunk: 25 } as const;

/** The request's filter, checked: text members at most 200 characters, 0 <= from < to. */
export function flowFilterOf(f: activitylogs.FlowFilter | undefined): FlowListFilter {
  const out: FlowListFilter = {};
  for (const field of flowFilterFields) {
    const v = f?.[field];
    if (v === undefined) continue;
    if (v.length === 0 || v.length > MAX_TEXT)
      throw invalid(`filter.${field} must be 1..${MAX_TEXT} characters`);
    out[field] = v;
  }
  for (const bound of ['from', 'to'] as const) {
    const v = f?.[bound];
    if (v === undefined) continue;
    if (!Number.isSafeInteger(v) || v < 0) throw invalid(`filter.${bound} must be epoch ms >= 0`);
    out[bound] = v;
  }
  if (out.from !== undefined && out.to !== undefined && out.from >= out.to)
    throw invalid('filter.from must be before filter.to');
  return out;
}

export const tenantOf = (tenantId: string) => {
  if (!tenantId || tenantId.length > MAX_TEXT) throw invalid('tenant_id is required');
  return tenantId;
};

/** ListFlows: a page after the cursor's position; next_cursor names the page's last record. */
export const listFlows =
  (repository: ActivityLogRepository) =>
  async (req: activitylogs.ListFlowsRequest): Promise<activitylogs.ListFlowsResponse> => {
    const tenantId = tenantOf(req.tenantId);
    const limit = req.limit || supportLimits.defaultLimit;
    if (limit < 1 || limit > supportLimits.maxLimit)
      throw invalid(`limit must be 1..${supportLimits.maxLimit}`);
    const after = req.cursor ? decodeCursor(req.cursor) : undefined;
    if (req.cursor && !after) throw invalid('cursor is not one this service handed out');
    const filter = flowFilterOf(req.filter);
    // One more than asked: whether a next page exists is known without an empty last page.
    const records = await repository.listFlows({ tenantId, filter, limit: limit + 1, after });
    const page = records.slice(0, limit);
    const last = page[page.length - 1];
    return {
      flows: page.map(supportRecordToProto),
      nextCursor: records.length > limit && last ? encodeCursor(last) : '',
    };
  };

/** GetFlow: NOT_FOUND for another tenant's flow exactly as for an unknown one. */
export const getFlow =
  (repository: ActivityLogRepository) =>
  async (req: activitylogs.GetFlowRequest): Promise<activitylogs.GetFlowResponse> => {
    const tenantId = tenantOf(req.tenantId);
    if (!req.flowId || req.flowId.length > MAX_TEXT) throw invalid('flow_id is required');
    const record = await repository.getFlow(tenantId, req.flowId);
    if (!record) throw new GrpcError(GrpcStatus.NOT_FOUND, 'flow not found');
    return { flow: supportRecordToProto(record) };
  };

/**
 * The batch's records as the bytes of the messages that carry them, `exportChunk` records each: encoded at
 * once, so the records and their messages die young and only bytes wait in grpc-js's buffer (GrpcServer lets
 * a server stream write a message already encoded).
 */
function encodedMessages(batch: ActivityRecord[]): Buffer[] {
  const messages: Buffer[] = [];
  for (let at = 0; at < batch.length; at += supportLimits.exportChunk) {
    const flows = batch.slice(at, at + supportLimits.exportChunk).map(supportRecordToProto);
    const bytes = activitylogs.ExportFlowsResponse.encode({ flows }).finish();
    messages.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  return messages;
}

type ExportCall = ServerWritableStream<activitylogs.ExportFlowsRequest, activitylogs.ExportFlowsResponse>;

/** Resolves when the stream takes more, or the call is cancelled; leaves no listener behind. */
function drainOrCancel(call: ExportCall): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      call.off('cancelled', done);
      resolve();
    };
    call.on('drain', done);
    call.on('cancelled', done);
  });
}

/**
 * ExportFlows: the snapshot of the records at the call's start, streamed. Backpressure: when the stream's
 * buffer is full (write returns false) nothing more is read until it drains; a cancelled call stops reading.
 * Messages are small (25 records) and written as bytes: grpc-js buffers up to 16 messages on each side (its
 * object-mode high-water mark), and records held across many writes would outlive the young generation and
 * grow the old space (docs/performance.md, the export of 1,000,000 records).
 */
export function exportFlows(repository: ActivityLogRepository, clock: Clock, logger?: Logger) {
  return (call: ExportCall): void => {
    let cancelled = false;
    call.on('cancelled', () => {
      cancelled = true;
    });
    const run = async () => {
      const tenantId = tenantOf(call.request.tenantId);
      const filter = flowFilterOf(call.request.filter);
      const batches = repository.exportFlows({
        tenantId,
        filter,
        snapshotAt: clock.now(),
        batchSize: supportLimits.exportBatch,
      });
      for await (const batch of batches) {
        const messages = encodedMessages(batch);
        batch.length = 0;
        for (const bytes of messages) {
          if (cancelled) return;
          if (!call.write(bytes as unknown as activitylogs.ExportFlowsResponse)) await drainOrCancel(call);
        }
        if (cancelled) return;
      }
      call.end();
    };
    // grpc-js ends a server stream with the status of an 'error' event (server-call.ts).
    run().catch((err: unknown) => {
      if (err instanceof GrpcError) {
        call.emit('error', { code: err.code, details: err.message });
        return;
      }
      logger?.error({ err }, 'flow export failed');
      call.emit('error', { code: GrpcStatus.INTERNAL, details: 'internal error' });
    });
  };
}
