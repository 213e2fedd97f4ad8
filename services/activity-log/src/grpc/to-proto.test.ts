import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { foldFlow } from '../domain/fold';
import { flowEvent } from '../testing/fixtures';
import { recordToProto, supportRecordToProto } from './to-proto';

describe('the trace id of an activity record', () => {
  const first = 'a'.repeat(32);
  const latest = 'b'.repeat(32);
  const state = foldFlow(undefined, [
    flowEvent({ timestamp: 1000, traceId: first }),
    flowEvent({ timestamp: 2000, action: 'auth_complete', traceId: latest }),
    flowEvent({ timestamp: 1500, action: 'auth_method_chosen' }),
  ]);

  it('is the latest traced step’s, whatever the delivery order', () => {
    assert.equal(state?.record.traceId, latest);
  });

  it('reaches support’s answer and stays out of the spec’s activity-logs answer', () => {
    assert.equal(supportRecordToProto(state!.record).traceId, latest);
    assert.equal('traceId' in recordToProto(state!.record), false);
  });
});
