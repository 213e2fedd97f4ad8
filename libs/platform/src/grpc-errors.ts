import { status } from '@grpc/grpc-js';
import { outageOf } from './unavailable';

/**
 * The status a gRPC handler answers for an outage below it: UNAVAILABLE or DEADLINE_EXCEEDED as itself, so
 * the caller can retry (not INTERNAL, which says "bug"). Undefined for any other error.
 */
export function outageStatus(err: unknown): { code: status; details: string } | undefined {
  const outage = outageOf(err);
  if (outage === 'unavailable')
    return { code: status.UNAVAILABLE, details: 'a store or service this call needs is unavailable' };
  if (outage === 'deadline_exceeded')
    return { code: status.DEADLINE_EXCEEDED, details: 'a call this one needs ran out of time' };
  return undefined;
}
