import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { createLogger } from '@sesame/platform';
import { DevSmsOutbox } from './dev-outbox';
import { HttpSmsSender } from './http-sender';
import { SmsDeliveryError } from './port';

/** Every line a trace-level logger wrote (what an attacker reading the logs sees). */
function capturingLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'sms-logs-test', level: 'trace', destination }) };
}

const TO = '+41791234567';

/** A text with a code and one with a CIBA link, and what of them must never be logged. */
function secretTexts() {
  const code = String(100_000 + Math.floor(Math.random() * 900_000));
  const token = randomBytes(24).toString('base64url');
  const link = `https://auth.sms.example/ciba/${token}`;
  return {
    texts: [`Your Sesame code is ${code}`, `Bank asks you to approve a payment: ${link}`],
    secrets: [code, token, link, TO],
  };
}

function assertNoSecret(lines: string[], secrets: string[]) {
  const all = lines.join('');
  for (const secret of secrets) assert.ok(!all.includes(secret), `a log line contains ${secret}:\n${all}`);
}

/**
 * A provider on loopback that answers with the status queued for the next request and, like real providers'
 * error answers, quotes the message it was sent (`{"message":"... Body: <text>"}`).
 */
describe('no SMS text, code, link or number in any log line, at trace level, on any path', () => {
  const answers: number[] = [];
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const status = answers.shift() ?? 201;
        const form = Object.fromEntries(new URLSearchParams(body));
        if (status === 599) return; // never answers: the sender's timeout
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            status < 300
              ? { sid: `SM${randomBytes(4).toString('hex')}`, body: form.Body, to: form.To }
              : { message: `refused ${form.To}: Body: ${form.Body}` },
          ),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/2010-04-01/Accounts/AC1/Messages.json`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });

  it('a delivered code and link: the line says the masked number and the message id, nothing of the text', async () => {
    const { lines, logger } = capturingLogger();
    const sender = new HttpSmsSender({ url, from: 'Sesame', user: 'AC1', password: 'pw', logger });
    const { texts, secrets } = secretTexts();
    for (const text of texts) {
      const { id } = await sender.send({ to: TO, text });
      const line = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
      assert.deepEqual([line.msg, line.messageId, line.to], ['sms handed to the provider', id, '+41…67']);
    }
    assertNoSecret(lines, [...secrets, 'pw']);
  });

  it.each([
    [400, 'rejected'],
    [429, 'unavailable'],
    [503, 'unavailable'],
    [599, 'unavailable'],
  ] as const)(
    'the provider answers %i quoting the text (or never answers): neither the error nor the caller logging it carries the text',
    async (status, kind) => {
      const { lines, logger } = capturingLogger();
      const sender = new HttpSmsSender({ url, from: 'Sesame', timeoutMs: 300, logger });
      const { texts, secrets } = secretTexts();
      for (const text of texts) {
        answers.push(status);
        const err = await sender.send({ to: TO, text }).catch((e: unknown) => e);
        assert.ok(err instanceof SmsDeliveryError);
        assert.equal(err.kind, kind);
        // what auth does with it (ciba/authorize-ciba.ts, steps/phone-number/verification.ts)
        logger.warn({ err }, 'the CIBA link could not be sent by SMS');
        assertNoSecret([...lines, JSON.stringify(err), err.message, String(err.stack)], secrets);
      }
    },
  );

  it('an unreachable provider: the error and its log line carry no part of the text', async () => {
    const { lines, logger } = capturingLogger();
    const sender = new HttpSmsSender({ url: 'http://127.0.0.1:1/Messages.json', from: 'Sesame', logger });
    const { texts, secrets } = secretTexts();
    for (const text of texts) {
      const err = await sender.send({ to: TO, text }).catch((e: unknown) => e);
      assert.ok(err instanceof SmsDeliveryError);
      logger.warn({ err }, 'the phone verification code could not be sent');
    }
    assertNoSecret(lines, secrets);
  });

  it('the development outbox logs the masked number and the id only', async () => {
    const { lines, logger } = capturingLogger();
    const outbox = new DevSmsOutbox({ logger });
    const { texts, secrets } = secretTexts();
    for (const text of texts) await outbox.send({ to: TO, text });
    assert.equal(lines.length, 2);
    assertNoSecret(lines, secrets);
  });
});
