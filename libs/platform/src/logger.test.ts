import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from '@jest/globals';
import { createLogger } from './logger';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  return { lines, stream };
}

describe('createLogger', () => {
  it('writes JSON with the service name and redacts secrets at any of the first levels', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ service: 'token', destination: stream });
    logger.info(
      {
        client_secret: 's3cret',
        body: { code: 'abc', code_verifier: 'ver', nested: { access_token: 'tok' } },
        req: { headers: { authorization: 'Bearer xyz' } },
        clientId: 'visible',
      },
      'token request',
    );
    assert.equal(lines.length, 1);
    const line = JSON.parse(lines[0]!);
    assert.equal(line.service, 'token');
    assert.equal(line.level, 'info');
    assert.equal(line.msg, 'token request');
    assert.equal(line.clientId, 'visible');
    assert.equal(line.client_secret, '[redacted]');
    assert.equal(line.body.code, '[redacted]');
    assert.equal(line.body.code_verifier, '[redacted]');
    assert.equal(line.body.nested.access_token, '[redacted]');
    assert.equal(line.req.headers.authorization, '[redacted]');
    for (const secret of ['s3cret', 'abc', 'ver', 'tok', 'xyz'])
      assert.ok(!lines[0]!.includes(`"${secret}"`), secret);
  });
});
