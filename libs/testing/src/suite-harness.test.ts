import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { openedForSuite } from './suite-harness';

class Counter {
  #count = 0;
  add(n: number) {
    this.#count += n;
    return this.#count;
  }
}

const closed: Counter[] = [];

describe('openedForSuite', () => {
  const counter = openedForSuite(
    async () => new Counter(),
    (c) => void closed.push(c),
  );
  let readEarly = '';
  try {
    counter.add(1);
  } catch (err) {
    readEarly = (err as Error).message;
  }

  it('throws when used before its beforeAll opened it (at describe time)', () => {
    assert.match(readEarly, /used before beforeAll/);
  });

  it('stands for what open resolved to: methods run on it (private fields too) and keep its state', () => {
    assert.equal(counter.add(2), 2);
    assert.equal(counter.add(3), 5);
  });
});

describe('openedForSuite, after the block above', () => {
  it('closed what it opened, once', () => {
    assert.equal(closed.length, 1);
    assert.equal(closed[0]?.add(0), 5);
  });
});
