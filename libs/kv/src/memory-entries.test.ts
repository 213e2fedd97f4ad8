import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { EntryTable, compactKey } from './memory-entries';

const digest = 'ab'.repeat(32);

describe('compactKey', () => {
  it('keeps a trailing SHA-256 hex digest as 32 one-byte characters', () => {
    const internal = compactKey(`access:${digest}`);
    assert.equal(internal.length, 1 + 'access:'.length + 32);
    assert.equal(internal, `\x00access:${Buffer.from(digest, 'hex').toString('latin1')}`);
  });

  it('keeps other keys as they are, and never maps two keys to one', () => {
    assert.equal(compactKey('throttle:client:abc'), 'throttle:client:abc');
    assert.equal(compactKey(`access:${digest.toUpperCase()}`), `access:${digest.toUpperCase()}`);
    const keys = [
      `access:${digest}`,
      compactKey(`access:${digest}`),
      `\x01${compactKey(`access:${digest}`)}`,
      '\x01x',
      'x',
      '',
      `${digest}`,
      `${digest}0`,
    ];
    assert.equal(new Set(keys.map(compactKey)).size, keys.length);
  });

  it('compacts exactly the keys whose last 64 characters are lower-case hex, as the Buffer decoding would', () => {
    // The compacted form as the code before the hand-written decoding made it: the same stored keys.
    const reference = (key: string) => {
      const tail = key.length - 64;
      if (tail >= 0 && /^[0-9a-f]{64}$/.test(key.slice(tail)))
        return `\x00${key.slice(0, tail)}${Buffer.from(key.slice(tail), 'hex').toString('latin1')}`;
      return key.charCodeAt(0) <= 1 && key.length > 0 ? `\x01${key}` : key;
    };
    let seed = 42;
    const byte = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 24;
    };
    for (let n = 0; n < 500; n++) {
      const hex = Buffer.from(Array.from({ length: 32 }, byte)).toString('hex');
      const key = `${n % 3 === 0 ? '' : 'access:'}${hex}`;
      assert.equal(compactKey(key), reference(key));
    }
    // One character that is no lower-case hex digit, at each of the 64 places, keeps the key as it is.
    for (let at = 0; at < 64; at++) {
      for (const odd of ['A', 'g', '/', ':', 'é', '\u0130', '\u{1F600}'.slice(0, 1)]) {
        const key = `access:${digest.slice(0, at)}${odd}${digest.slice(at + 1)}`;
        assert.equal(compactKey(key), key);
        assert.equal(compactKey(key), reference(key));
      }
    }
  });
});

describe('EntryTable', () => {
  it('stores, expires, updates and deletes by the caller’s key', () => {
    const table = new EntryTable();
    table.set(`access:${digest}`, 'v1', 100);
    table.set('plain', 'p', 50);
    assert.equal(table.value(`access:${digest}`, 10), 'v1');
    assert.equal(table.expiresAt(`access:${digest}`, 10), 100);
    assert.equal(table.update(`access:${digest}`, 'v2', 10), true);
    assert.equal(table.value(`access:${digest}`, 10), 'v2');
    assert.equal(table.expiresAt(`access:${digest}`, 10), 100);
    assert.equal(table.value('plain', 50), undefined);
    assert.equal(table.update('plain', 'q', 50), false);
    table.delete(`access:${digest}`);
    assert.equal(table.value(`access:${digest}`, 10), undefined);
    assert.equal(table.size, 0);
  });

  it('reuses freed slots and grows past its first capacity', () => {
    const table = new EntryTable();
    for (let i = 0; i < 1000; i++) table.set(`k${i}`, `v${i}`, 1000 + i);
    for (let i = 0; i < 1000; i++) assert.equal(table.value(`k${i}`, 0), `v${i}`);
    table.sweep(1499);
    assert.equal(table.size, 500);
    for (let i = 0; i < 500; i++) table.set(`n${i}`, `w${i}`, 5000);
    assert.equal(table.size, 1000);
    assert.equal(table.value('k999', 1500), 'v999');
    assert.equal(table.value('n499', 1500), 'w499');
    assert.equal(table.expiresAt('k600', 1500), 1600);
  });
});
