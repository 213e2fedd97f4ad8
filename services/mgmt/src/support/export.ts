import { once } from 'node:events';
import type { Response } from 'express';
import { explainOutcome } from './explain';
import type { FlowRecord } from './port';

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

/**
 * Streams `records` as a CSV or JSON download, respecting backpressure (bounded memory at any size). The first
 * record (or the end) is read before the status is sent, so a peer that cannot answer is the caller's error (a
 * 503), never an empty 200; a failure half-way ends the response early (the client sees a truncated file
 * rather than a misleading complete one).
 */
export async function streamExport(
  res: Response,
  format: ExportFormat,
  records: AsyncIterable<FlowRecord>,
  name: string,
  now: number,
): Promise<void> {
  const iterator = records[Symbol.asyncIterator]();
  let next = await iterator.next();
  res.status(200).set({
    'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
    'Content-Disposition': `attachment; filename="${name}-${stamp(now)}.${format}"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  const write = async (chunk: string) => {
    if (!res.write(chunk)) await once(res, 'drain');
  };
  let first = true;
  try {
    await write(format === 'csv' ? `${CSV_COLUMNS.join(',')}\r\n` : '[');
    while (!next.done) {
      if (res.destroyed) {
        await iterator.return?.();
        return;
      }
      const record = next.value;
      await write(
        format === 'csv' ? `${csvLine(record)}\r\n` : `${first ? '' : ','}\n${JSON.stringify(record)}`,
      );
      first = false;
      next = await iterator.next();
    }
    if (format === 'json') await write('\n]\n');
    res.end();
  } catch (err) {
    res.destroy(err as Error);
  }
}
