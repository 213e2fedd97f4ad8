import { events } from '@sesame/proto';
import { z } from 'zod';
import type { AdminLogEntry } from '../domain/activity-record';

const adminEventSchema = z.object({
  id: z.string().min(1).max(200),
  activityType: z.string().regex(/^[a-z0-9_]{1,100}$/, 'an activity type name'),
  adminEmail: z.string().max(320),
  clientIp: z.string().max(100),
  sessionId: z.string().max(200),
  tenantId: z.string().min(1).max(200),
  timestamp: z.number().int().min(0).max(8.64e15),
  data: z.record(z.unknown()),
});

export class UndecodableAdminEvent extends Error {
  constructor(
    readonly reason: 'decode_failed' | 'validation_failed',
    message: string,
  ) {
    super(message);
    this.name = 'UndecodableAdminEvent';
  }
}

/** Decodes and validates one message of the admin-events topic (spec 2.5); throws UndecodableAdminEvent. */
export function decodeAdminEvent(bytes: Uint8Array): AdminLogEntry {
  let m: events.AdminEvent;
  try {
    m = events.AdminEvent.decode(bytes);
  } catch (err) {
    throw new UndecodableAdminEvent('decode_failed', err instanceof Error ? err.message : String(err));
  }
  const { timestampMs, data, ...members } = m;
  const parsed = adminEventSchema.safeParse({ ...members, timestamp: timestampMs, data: data ?? {} });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UndecodableAdminEvent(
      'validation_failed',
      `${issue?.path.join('.') || '(event)'}: ${issue?.message}`,
    );
  }
  return parsed.data;
}
