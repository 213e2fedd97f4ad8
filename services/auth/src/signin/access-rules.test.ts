import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { FlowDevice } from '../flow/flow';
import type { DeviceAccess } from '../users/model';
import { blockedDevice } from './access-rules';

const device = (deviceId: string): FlowDevice => ({ deviceId, facts: {} }) as FlowDevice;

/** Device decisions in a map, counting lookups. */
function deviceAccess(decisions: Record<string, boolean>) {
  const looked: string[] = [];
  return {
    looked,
    deps: {
      users: {
        deviceAccess: {
          async get(tenantId: string, userId: string, deviceId: string): Promise<DeviceAccess | undefined> {
            looked.push(deviceId);
            const allowAccess = decisions[deviceId];
            return allowAccess === undefined
              ? undefined
              : { tenantId, userId, deviceId, allowAccess, changedAt: 0 };
          },
        },
      },
    },
  };
}

describe('blockedDevice', () => {
  it('looks up a browser that both started and proved the flow once', async () => {
    const { deps, looked } = deviceAccess({});
    const browser = device('d1');
    const flow = { tenantId: 't', originatingDevice: browser, proof: { device: browser } } as never;
    assert.equal(await blockedDevice(deps as never, flow, 'u'), undefined);
    assert.deepEqual(looked, ['d1']);
  });

  it('answers the first blocked device in the order desktop, proving device, desktop of a phone flow', async () => {
    const { deps, looked } = deviceAccess({ phone: false, desktop: false, allowed: true });
    const flow = {
      tenantId: 't',
      originatingDevice: device('allowed'),
      proof: { device: device('phone') },
      ama: { desktopDevice: device('desktop') },
    } as never;
    assert.equal((await blockedDevice(deps as never, flow, 'u'))?.deviceId, 'phone');
    assert.deepEqual([...looked].sort(), ['allowed', 'desktop', 'phone']);
  });

  it('an allowed decision or none lets every device through', async () => {
    const { deps } = deviceAccess({ a: true });
    const flow = { tenantId: 't', originatingDevice: device('a'), proof: { device: device('b') } } as never;
    assert.equal(await blockedDevice(deps as never, flow, 'u'), undefined);
  });
});
