import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from '@jest/globals';
import { userStoreContract } from './users.contract';
import { memoryUserStore } from './users.memory';

userStoreContract('memory', async () => memoryUserStore());

// %HasFastProperties: whether V8 gave the object a hidden class of its own (libs/platform, idKeyed).
setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;

describe('memory memberships: deviceLogins as stored', () => {
  const membership = (deviceLogins: Record<string, { firstLoginAt: number; lastLoginAt: number }>) => ({
    tenantId: 't1',
    appId: 'app-1',
    userId: 'u1',
    acrValues: [],
    confirmed: true,
    firstLoginAt: 1,
    lastLoginAt: 2,
    deviceLogins,
  });
  /** The row the store keeps (private): what stays in the heap for as long as the membership exists. */
  const storedRows = (store: ReturnType<typeof memoryUserStore>) =>
    (store.memberships as unknown as { rows: Map<string, { deviceLogins?: object }> }).rows;

  it('keeps them in dictionary mode (no hidden class per device id), from save and from update alike', async () => {
    const store = memoryUserStore();
    await store.memberships.save(membership({ 'device-a': { firstLoginAt: 1, lastLoginAt: 2 } }));
    const [saved] = [...storedRows(store).values()];
    expect(hasFastProperties(saved!.deviceLogins!)).toBe(false);

    await store.memberships.update('t1', 'app-1', 'u1', (current) => ({
      ...current!,
      deviceLogins: { ...current!.deviceLogins, 'device-b': { firstLoginAt: 3, lastLoginAt: 3 } },
    }));
    const [updated] = [...storedRows(store).values()];
    expect(hasFastProperties(updated!.deviceLogins!)).toBe(false);
    expect(Object.keys(updated!.deviceLogins!)).toEqual(['device-a', 'device-b']);
  });

  it('hands out ordinary copies with the same entries', async () => {
    const store = memoryUserStore();
    await store.memberships.save(membership({ 'device-a': { firstLoginAt: 1, lastLoginAt: 2 } }));
    const read = await store.memberships.get('t1', 'app-1', 'u1');
    expect(Object.getPrototypeOf(read!.deviceLogins)).toBe(Object.prototype);
    expect(read!.deviceLogins).toEqual({ 'device-a': { firstLoginAt: 1, lastLoginAt: 2 } });
  });
});
