import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { RecencyList } from './recency-list';

interface Entry {
  key: number | string;
  older: Entry | undefined;
  newer: Entry | undefined;
}
const entry = (key: number | string): Entry => ({ key, older: undefined, newer: undefined });
const keys = (list: RecencyList<Entry>) => [...list.values()].map((e) => e.key);

/** The model: a Map moved to the end on every touch, its oldest key the first one. */
class ModelMap<K> {
  readonly map = new Map<K, true>();
  touch(key: K) {
    this.map.delete(key);
    this.map.set(key, true);
  }
  oldest(): K | undefined {
    return this.map.keys().next().value;
  }
}

describe('RecencyList', () => {
  it('keeps the least recently touched entry first, through touches, removals and shifts', () => {
    const list = new RecencyList<Entry>();
    const [a, b, c] = [entry('a'), entry('b'), entry('c')];
    for (const e of [a, b, c]) list.touch(e);
    assert.equal(list.oldest(), a);
    list.touch(a); // a is now the newest
    assert.deepEqual(keys(list), ['b', 'c', 'a']);
    list.touch(a); // touching the newest again changes nothing
    assert.deepEqual(keys(list), ['b', 'c', 'a']);
    assert.equal(list.remove(b), true);
    assert.equal(list.remove(b), false, 'a removed entry is not in the list');
    assert.equal(list.has(b), false);
    assert.equal(list.oldest(), c);
    assert.equal(list.shift(), c);
    assert.equal(list.has(c), false);
    assert.equal(list.size, 1);
    assert.equal(list.shift(), a);
    assert.equal(list.shift(), undefined);
    assert.equal(list.size, 0);
    assert.deepEqual(keys(list), []);
    list.touch(b); // an entry taken out can come back
    assert.deepEqual(keys(list), ['b']);
    assert.equal(b.older, undefined);
    assert.equal(b.newer, undefined);
  });

  it('answers as a Map moved to the end on every touch would, over 200,000 mixed calls', () => {
    const list = new RecencyList<Entry>();
    const model = new ModelMap<number>();
    const entries = Array.from({ length: 3000 }, (_, i) => entry(i));
    // A fixed walk over the operations and keys (a multiplicative sequence): the same every run.
    let x = 12345;
    const step = () => {
      x = (x * 48271) % 2147483647;
      return x;
    };
    for (let i = 0; i < 200_000; i++) {
      const op = step() % 10;
      const key = step() % 3000;
      const e = entries[key]!;
      if (op < 6) {
        list.touch(e);
        model.touch(key);
      } else if (op < 8) {
        assert.equal(list.remove(e), model.map.delete(key));
      } else if (op < 9) {
        const oldest = model.oldest();
        assert.equal(list.shift()?.key, oldest);
        if (oldest !== undefined) model.map.delete(oldest);
      } else {
        assert.equal(list.oldest()?.key, model.oldest());
        assert.equal(list.has(e), model.map.has(key));
      }
      assert.equal(list.size, model.map.size);
      if (i % 997 === 0) assert.deepEqual(keys(list), [...model.map.keys()], `order after call ${i}`);
    }
    const order: (number | string)[] = [];
    for (let e = list.shift(); e !== undefined; e = list.shift()) order.push(e.key);
    assert.deepEqual(order, [...model.map.keys()]);
  });

  it('links its entries both ways, so walking back from the newest gives the order reversed', () => {
    const list = new RecencyList<Entry>();
    const entries = Array.from({ length: 50 }, (_, i) => entry(i));
    for (const e of entries) list.touch(e);
    for (let i = 0; i < 50; i += 3) list.touch(entries[i]!);
    for (let i = 1; i < 50; i += 7) list.remove(entries[i]!);
    const forward = keys(list);
    const backward: (number | string)[] = [];
    let last = list.oldest();
    while (last?.newer) last = last.newer;
    for (let e = last; e; e = e.older) backward.push(e.key);
    assert.deepEqual(backward, forward.reverse());
    assert.equal(list.size, forward.length);
  });
});
