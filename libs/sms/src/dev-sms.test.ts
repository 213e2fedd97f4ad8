import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { ConfigError, createLogger, loadConfig } from '@sesame/platform';
import express from 'express';
import { createSmsSender, smsConfigSchema } from './config';
import { DevSmsOutbox } from './dev-outbox';
import { devSmsRouter } from './dev-sms-routes';
import { HttpSmsSender } from './http-sender';

const logger = createLogger({ service: 'test', level: 'silent' });

describe('devSmsRouter', () => {
  const outbox = new DevSmsOutbox({ now: () => new Date('2026-03-04T05:06:07.000Z') });
  let server: ReturnType<express.Express['listen']>;
  let base: string;
  beforeAll(async () => {
    server = express().use(devSmsRouter(outbox)).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await outbox.send({ to: '+41791234567', text: 'first' });
    await outbox.send({ to: '+41791234568', text: '<script>x</script> https://a.example/ciba/t' });
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('GET /dev/sms.json lists {id,to,text,sentAt} newest first, not cached', async () => {
    const res = await fetch(`${base}/dev/sms.json`);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const body = (await res.json()) as { messages: unknown[] };
    const [newest, oldest] = outbox.list();
    assert.deepEqual(body, {
      messages: [
        {
          id: newest?.id,
          to: '+41791234568',
          text: '<script>x</script> https://a.example/ciba/t',
          sentAt: '2026-03-04T05:06:07.000Z',
        },
        { id: oldest?.id, to: '+41791234567', text: 'first', sentAt: '2026-03-04T05:06:07.000Z' },
      ],
    });
  });

  it('GET /dev/sms is an HTML page with the text escaped and the link clickable', async () => {
    const res = await fetch(`${base}/dev/sms`);
    const html = await res.text();
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.doesNotMatch(html, /<script>/);
    assert.match(html, /&lt;script&gt;/);
    assert.match(html, /<a href="https:\/\/a\.example\/ciba\/t">/);
  });

  it('keeps at most its capacity, dropping the oldest', async () => {
    const small = new DevSmsOutbox({ capacity: 2 });
    for (const text of ['1', '2', '3']) await small.send({ to: '+41791234567', text });
    assert.deepEqual(
      small.list().map((m) => m.text),
      ['3', '2'],
    );
  });
});

describe('createSmsSender', () => {
  const config = (env: Record<string, string>) => ({
    ...loadConfig(smsConfigSchema, env),
    SESAME_ENV: (env.SESAME_ENV ?? 'development') as 'development' | 'test' | 'production',
  });

  it('uses the HTTP adapter when SESAME_SMS_URL is set', () => {
    const sender = createSmsSender(config({ SESAME_SMS_URL: 'https://sms.example/Messages.json' }), logger);
    assert.ok(sender instanceof HttpSmsSender);
  });

  it('uses the outbox in development and test', () => {
    assert.ok(createSmsSender(config({ SESAME_ENV: 'development' }), logger) instanceof DevSmsOutbox);
    assert.ok(createSmsSender(config({ SESAME_ENV: 'test' }), logger) instanceof DevSmsOutbox);
  });

  it('refuses to start in production without SESAME_SMS_URL', () => {
    assert.throws(
      () => createSmsSender(config({ SESAME_ENV: 'production' }), logger),
      (err: unknown) => err instanceof ConfigError && /SESAME_SMS_URL/.test(err.problems.join()),
    );
  });

  it('follows the kind of a region, not its name', () => {
    const region = (name: string, kind: 'development' | 'sandbox') => ({
      ...loadConfig(smsConfigSchema, {}),
      SESAME_ENV: name,
      SESAME_ENV_KIND: kind,
    });
    assert.ok(createSmsSender(region('laptop-eu', 'development'), logger) instanceof DevSmsOutbox);
    assert.throws(
      () => createSmsSender(region('staging-us', 'sandbox'), logger),
      (err: unknown) =>
        err instanceof ConfigError && /^SESAME_SMS_URL: required in staging-us/.test(err.problems.join()),
    );
  });

  it('refuses a SESAME_SMS_URL that is not http(s)', () => {
    assert.throws(() => loadConfig(smsConfigSchema, { SESAME_SMS_URL: 'ftp://x' }), ConfigError);
  });
});
