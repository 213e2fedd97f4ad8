import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { events } from './index';
import { reusingWriter } from './reusing-writer';

const event = (over: Partial<events.FlowEvent>): events.FlowEvent =>
  events.FlowEvent.fromPartial({
    eventId: 'e-1',
    flowId: 'f-1',
    tenantId: 't',
    appId: 'app',
    timestampMs: 1_764_633_600_000,
    action: 'desktop_login_page',
    clientIp: '203.0.113.7',
    ...over,
  });
const fresh = (m: events.FlowEvent) => events.FlowEvent.encode(m).finish();

describe('reusingWriter', () => {
  it('encodes each message to the bytes a fresh writer gives, whatever came before it', () => {
    const encode = reusingWriter(events.FlowEvent);
    const messages = [
      event({
        accessingDeviceInfo: {
          osType: 'Linux',
          browserType: 'Chrome',
          detectedName: 'Chrome on Linux '.repeat(20),
        },
        extraDetails: { reason: 'long', n: 3 },
      }),
      event({ eventId: 'e-2' }), // shorter than the one before: nothing of it may remain
      event({ eventId: 'e-3', extraDetails: { nested: { a: [1, 'two', true] } } }),
    ];
    const outputs = messages.map(encode);
    messages.forEach((m, i) => assert.deepEqual(outputs[i], fresh(m), `message ${i}`));
    assert.deepEqual(events.FlowEvent.decode(outputs[1]!), messages[1]);
  });

  it('hands out copies: a later message does not change the bytes of an earlier one', () => {
    const encode = reusingWriter(events.FlowEvent);
    const first = encode(event({ eventId: 'first' }));
    const kept = Uint8Array.from(first);
    encode(event({ eventId: 'second' }));
    assert.deepEqual(first, kept);
  });

  it('starts clean after a message that throws half way', () => {
    const encode = reusingWriter(events.FlowEvent);
    assert.throws(
      () => encode(event({ timestampMs: 1.5 })),
      /BigInt/,
      'the timestamp, field 5, comes after four fields already written',
    );
    const after = event({ eventId: 'after', extraDetails: { k: 'v' } });
    assert.deepEqual(encode(after), fresh(after));
  });

  it('encodes a message over its kept size correctly, and the ones after it', () => {
    const encode = reusingWriter(events.FlowEvent, 1024);
    const big = event({ accessingDeviceInfo: { detectedName: 'x'.repeat(5000) } });
    const small = event({ eventId: 'small' });
    assert.deepEqual(encode(big), fresh(big));
    assert.deepEqual(encode(small), fresh(small));
  });
});
