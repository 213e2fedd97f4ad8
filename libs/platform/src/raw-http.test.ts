import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, it } from '@jest/globals';
import { pathOf, readRawBody, requestIdOf } from './raw-http';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A request body stream with the given Content-Length header (or none). */
function body(chunks: string[], contentLength?: number): IncomingMessage {
  const stream = new PassThrough();
  const req = Object.assign(stream, {
    headers: contentLength === undefined ? {} : { 'content-length': String(contentLength) },
  });
  setImmediate(() => {
    for (const chunk of chunks) stream.write(Buffer.from(chunk));
    stream.end();
  });
  return req as unknown as IncomingMessage;
}

const errors = {
  tooLarge: () => new Error('too large'),
  unreadable: (err: Error) => new Error(`unreadable: ${err.message}`),
};

describe('raw request helpers', () => {
  it('keeps a sane X-Request-Id and replaces anything else with a new UUID', () => {
    for (const id of ['req-42', 'a.b_c-D', 'x'.repeat(128)]) assert.equal(requestIdOf(id), id);
    for (const id of ['', 'a b', 'x'.repeat(129), '<script>', 'a\nb', undefined, ['a', 'b']])
      assert.match(requestIdOf(id), UUID);
  });

  it('matches the path without its query', () => {
    assert.equal(pathOf('/token?x=1?y'), '/token');
    assert.equal(pathOf('/jwks'), '/jwks');
    assert.equal(pathOf(undefined), '/');
  });

  it('reads a body in chunks as UTF-8', async () => {
    assert.equal(await readRawBody(body(['a=1&', 'b=', 'é'.repeat(3)]), 100, errors), 'a=1&b=ééé');
  });

  it('refuses a body over the limit: declared by Content-Length, or as it arrives', async () => {
    await assert.rejects(readRawBody(body(['x'], 101), 100, errors), /too large/);
    await assert.rejects(readRawBody(body(['x'.repeat(60), 'x'.repeat(41)]), 100, errors), /too large/);
    assert.equal((await readRawBody(body(['x'.repeat(100)], 100), 100, errors)).length, 100);
  });
});
