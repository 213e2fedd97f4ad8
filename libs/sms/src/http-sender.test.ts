import assert from 'node:assert/strict';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { HttpSmsSender } from './http-sender';
import { InvalidSmsError, SmsDeliveryError } from './port';

interface Seen {
  method: string;
  path: string;
  authorization: string;
  contentType: string;
  form: Record<string, string>;
}

/** A stand-in provider on loopback: answers each request with the next status queued (default 201). */
describe('HttpSmsSender', () => {
  const seen: Seen[] = [];
  const answers: number[] = [];
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        seen.push({
          method: req.method ?? '',
          path: req.url ?? '',
          authorization: req.headers.authorization ?? '',
          contentType: req.headers['content-type'] ?? '',
          form: Object.fromEntries(new URLSearchParams(body)),
        });
        const status = answers.shift() ?? 201;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(status < 300 ? { sid: `SM${seen.length}` } : { message: 'no' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/2010-04-01/Accounts/AC1/Messages.json`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('POSTs To, From and Body as a form with Basic auth, and returns the provider sid', async () => {
    const sender = new HttpSmsSender({ url, from: '+15005550006', user: 'AC1', password: 'tok:en' });
    const { id } = await sender.send({ to: '+41791234567', text: 'Bank: tap https://a.example/ciba/x' });
    const last = seen.at(-1);
    assert.equal(id, `SM${seen.length}`);
    assert.equal(last?.method, 'POST');
    assert.equal(last?.path, '/2010-04-01/Accounts/AC1/Messages.json');
    assert.equal(last?.contentType, 'application/x-www-form-urlencoded');
    assert.equal(last?.authorization, `Basic ${Buffer.from('AC1:tok:en').toString('base64')}`);
    assert.deepEqual(last?.form, {
      To: '+41791234567',
      From: '+15005550006',
      Body: 'Bank: tap https://a.example/ciba/x',
    });
  });

  it('a 4xx answer is rejected, a 5xx or 429 is unavailable; neither repeats the text', async () => {
    const sender = new HttpSmsSender({ url, from: 'Sesame' });
    for (const [status, kind] of [
      [400, 'rejected'],
      [429, 'unavailable'],
      [503, 'unavailable'],
    ] as const) {
      answers.push(status);
      const err = await sender.send({ to: '+41791234567', text: 'secret-link' }).catch((e: unknown) => e);
      assert.ok(err instanceof SmsDeliveryError);
      assert.equal(err.kind, kind);
      assert.equal(err.status, status);
      assert.doesNotMatch(err.message, /secret-link/);
    }
  });

  it('no connection is unavailable', async () => {
    const sender = new HttpSmsSender({ url: 'http://127.0.0.1:1/Messages.json', from: 'Sesame' });
    const err = await sender.send({ to: '+41791234567', text: 'x' }).catch((e: unknown) => e);
    assert.ok(err instanceof SmsDeliveryError);
    assert.equal(err.kind, 'unavailable');
  });

  it('refuses a number that is not E.164 before calling the provider', async () => {
    const before = seen.length;
    const sender = new HttpSmsSender({ url, from: 'Sesame' });
    await assert.rejects(sender.send({ to: '0791234567', text: 'x' }), InvalidSmsError);
    assert.equal(seen.length, before);
  });
});
