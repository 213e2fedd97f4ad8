import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from '@jest/globals';
import { idKeyed } from './v8-tuning';

// %HasFastProperties is V8's own answer to "does this object have a hidden class of its own (fast mode)".
setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;

describe('idKeyed', () => {
  it('copies the entries into a dictionary-mode object, where an object literal keyed by an id is fast', () => {
    const literal = { 'device-7f3a': { firstLoginAt: 1, lastLoginAt: 2 } };
    expect(hasFastProperties(literal)).toBe(true);
    const keyed = idKeyed(literal);
    expect(hasFastProperties(keyed)).toBe(false);
    expect(Object.entries(keyed)).toEqual(Object.entries(literal));
    expect(keyed['device-7f3a']).toBe(literal['device-7f3a']);
  });

  it('stays in dictionary mode as keys are added, and has no prototype to shadow an id like "constructor"', () => {
    const keyed = idKeyed<number>({});
    for (let i = 0; i < 50; i++) keyed[`device-${i}`] = i;
    Reflect.set(keyed, 'constructor', 99); // an id may be any string
    expect(hasFastProperties(keyed)).toBe(false);
    expect(Object.getPrototypeOf(keyed)).toBeNull();
    expect(Object.keys(keyed)).toHaveLength(51);
    expect(Reflect.get(keyed, 'constructor')).toBe(99);
  });

  it('structuredClone of it (a store handing out a copy) is an ordinary object with the same entries', () => {
    const copy = structuredClone(idKeyed({ a: { n: 1 } }));
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toEqual({ a: { n: 1 } });
  });
});
