import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { PushedRequests } from './pushed-requests';

describe('PushedRequests', () => {
  const setup = () => {
    let now = 1_800_000_000_000;
    const kv = new MemoryKeyValueStore(() => now);
    const advance = (ms: number) => {
      now += ms;
    };
    return { store: new PushedRequests(kv), advance };
  };
  const request = { clientId: 'c1', values: { client_id: 'c1', scope: 'openid' } };

  it('hands the values to their client once', async () => {
    const { store } = setup();
    const { requestUri } = await store.push(request);
    assert.deepEqual(await store.take(requestUri, 'c1'), request.values);
    assert.equal(await store.take(requestUri, 'c1'), undefined);
  });

  it('expires after 60 seconds', async () => {
    const { store, advance } = setup();
    const { requestUri, expiresIn } = await store.push(request);
    assert.equal(expiresIn, 60);
    advance(60_001);
    assert.equal(await store.take(requestUri, 'c1'), undefined);
  });

  it('refuses another client (or none) without using it up', async () => {
    const { store } = setup();
    const { requestUri } = await store.push(request);
    assert.equal(await store.take(requestUri, 'c2'), undefined);
    assert.equal(await store.take(requestUri, undefined), undefined);
    assert.deepEqual(await store.take(requestUri, 'c1'), request.values);
  });
});
