import { once } from 'node:events';
import type { Response } from 'express';
import type { FlowRecord } from '../../support/port';
import { explainOutcome } from './explain';

export type ExportFormat = 'csv' | 'json';

/** The data of administrator_export_event_data, spelled as spec 2.5 does (`multipeEvents`). */
export const exportEventData = (flowId?: string) =>
  flowId === undefined ? { multipeEvents: true } : { multipeEvents: false, flowId };

/**
 * A cell a spreadsheet would read as a formula (= + - @, or a leading tab or CR) is prefixed with a quote so
 * it stays text (CSV injection); then quoted when it holds a separator, a quote or a line break.
 */
export function csvCell(value: unknown): string {
  let text = value === undefined || value === null ? '' : typeof value === 'string' ? value : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const CSV_COLUMNS = [
  'id',
  'time',
  'applicationId',
  'userId',
  'email',
  'userAlias',
  'flowType',
  'authMethodType',
  'status',
  'errorCode',
  'failureReason',
  'outcome',
  'accessingDevice',
  'accessingIp',
  'country',
  'city',
] as const;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** One record as a CSV line (without the line break), in CSV_COLUMNS order. */
export function csvLine(record: FlowRecord): string {
  const location = (record.accessingDeviceLocation ?? {}) as Record<string, unknown>;
  const cells: Record<(typeof CSV_COLUMNS)[number], unknown> = {
    id: record.id,
    time: new Date(record.timestamp).toISOString(),
    applicationId: record.applicationId,
    userId: record.userId,
    email: record.email,
    userAlias: str(record.userAlias),
    flowType: record.flowType,
    authMethodType: record.authMethodType,
    status: record.status,
    errorCode: record.errorCode,
    failureReason: record.failureReason,
    outcome: explainOutcome('en', record),
    accessingDevice: str(record.accessingDevice),
    accessingIp: str(record.accessingIp),
    country: str(location.country),
    city: str(location.city),
  };
  return CSV_COLUMNS.map((c) => csvCell(cells[c])).join(',');
}

const stamp = (now: number) => new Date(now).toISOString().slice(0, 19).replace(/[-:]/g, '');

/** Characters gathered before a write: the response's own buffer (its high-water mark) is 16 KiB. */
const WRITE_PIECE = 16 * 1024;

/**
 * Writes `text` and resolves once the response can take more (its buffer drained): true, or false when the
 * response is gone (the client left; no 'drain' will ever come) so the export stops reading its records.
 */
async function written(res: Response, text: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (res.write(text)) return true;
  const gone = new AbortController();
  await Promise.race([
    once(res, 'drain', { signal: gone.signal }),
    once(res, 'close', { signal: gone.signal }),
  ]).catch(() => undefined);
  gone.abort();
  return !res.destroyed;
}

/**
 * Streams `batches` of records as a CSV or JSON download, respecting backpressure (bounded memory at any
 * size). The first batch (or the end) is read before the status is sent, so a peer that cannot answer is the caller's error (a
 * 503), never an empty 200; a failure half-way ends the response early (the client sees a truncated file
 * rather than a misleading complete one).
 */
export async function streamExport(
  res: Response,
  format: ExportFormat,
  batches: AsyncIterable<FlowRecord[]>,
  name: string,
  now: number,
): Promise<void> {
  const iterator = batches[Symbol.asyncIterator]();
  let next = await iterator.next();
  res.status(200).set({
    'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
    'Content-Disposition': `attachment; filename="${name}-${stamp(now)}.${format}"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  // The records' text is gathered into pieces of about WRITE_PIECE characters, each written once: a record is
  // garbage as soon as its line is made, and the response buffers a few pieces, not a write per record.
  let piece = '';
  let first = true;
  try {
    // The first line at once: the status and headers go out before any record is read further.
    if (!(await written(res, format === 'csv' ? `${CSV_COLUMNS.join(',')}\r\n` : '['))) {
      await iterator.return?.();
      return;
    }
    while (!next.done) {
      for (const record of next.value) {
        piece +=
          format === 'csv' ? `${csvLine(record)}\r\n` : `${first ? '' : ','}\n${JSON.stringify(record)}`;
        first = false;
      }
      if (piece.length >= WRITE_PIECE) {
        const taken = await written(res, piece);
        piece = '';
        if (!taken) {
          await iterator.return?.();
          return;
        }
      }
      next = await iterator.next();
    }
    if (format === 'json') piece += '\n]\n';
    if (await written(res, piece)) res.end();
  } catch (err) {
    res.destroy(err as Error);
  }
}
