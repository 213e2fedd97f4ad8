import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from '@jest/globals';
import { StoreUnavailableError, outageOf } from './unavailable';

const refused = () =>
  new Promise<Error>((resolve) => connect(1, '127.0.0.1').once('error', (err) => resolve(err)));

describe('outageOf', () => {
  it('classifies connection failures, driver outage errors and downstream gRPC outages as outages', async () => {
    const grpcError = (code: number) => Object.assign(new Error('x'), { code, details: 'x', metadata: {} });
    const named = (name: string) => Object.assign(new Error('x'), { name });
    assert.equal(outageOf(await refused()), 'unavailable');
    assert.equal(outageOf(new StoreUnavailableError('mongo')), 'unavailable');
    assert.equal(outageOf(named('MaxRetriesPerRequestError')), 'unavailable');
    assert.equal(outageOf(named('MongoServerSelectionError')), 'unavailable');
    assert.equal(outageOf(new Error('wrapped', { cause: await refused() })), 'unavailable');
    assert.equal(outageOf(grpcError(14)), 'unavailable');
    assert.equal(outageOf(grpcError(4)), 'deadline_exceeded');
  });

  it('leaves bugs, bad input and other gRPC statuses alone', () => {
    assert.equal(outageOf(new TypeError('x is undefined')), undefined);
    assert.equal(
      outageOf(Object.assign(new Error('dup'), { code: 11000, name: 'MongoServerError' })),
      undefined,
    );
    assert.equal(
      outageOf(Object.assign(new Error('nf'), { code: 5, details: 'nf', metadata: {} })),
      undefined,
    );
    assert.equal(outageOf('a string'), undefined);
  });
});
