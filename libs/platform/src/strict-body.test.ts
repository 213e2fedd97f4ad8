import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import express from 'express';
import { MalformedBodyError, checkUrlencoded, strictUtf8, wellFormedUrlencoded } from './strict-body';
import { strictUrlencoded } from './strict-body';

describe('strict request bodies', () => {
  it('wellFormedUrlencoded: refuses %zz, a lone %, a cut UTF-8 escape and an overlong one; keeps + and escapes', () => {
    for (const bad of ['name=%zz', 'name=%', 'a=1&b=%E0%A4', 'name=%C0%AF', '%=x'])
      assert.equal(wellFormedUrlencoded(bad), false, bad);
    for (const good of ['', 'name=Acme+GmbH', 'name=Z%C3%BCrich&x=', 'a&b=&=c', 'e=%F0%9F%8D%B0'])
      assert.equal(wellFormedUrlencoded(good), true, good);
  });

  it('strictUtf8 and checkUrlencoded throw a 400 MalformedBodyError on bytes that are not UTF-8', () => {
    assert.throws(() => strictUtf8(Buffer.from([0x61, 0xff, 0x62])), MalformedBodyError);
    assert.throws(
      () => checkUrlencoded(Buffer.from([0x6e, 0x3d, 0xc3])),
      (err: MalformedBodyError) => err.status === 400,
    );
    assert.equal(strictUtf8(Buffer.from('Zürich')), 'Zürich');
  });

  it('strictUrlencoded: a broken body reaches the error middleware with status 400; a good one is parsed', async () => {
    const app = express();
    app.post('/f', strictUrlencoded('1kb'), (req, res) => {
      res.json(req.body);
    });
    app.use(((err, _req, res, _next) => {
      res.status(err.status ?? 500).json({ type: err.type });
    }) as express.ErrorRequestHandler);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/f`;
      const post = (body: string) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
      const bad = await post('name=%zz');
      assert.equal(bad.status, 400);
      assert.deepEqual(await bad.json(), { type: 'entity.malformed' });
      const good = await post('name=Z%C3%BCrich+1');
      assert.deepEqual(await good.json(), { name: 'Zürich 1' });
    } finally {
      server.close();
    }
  });
});
