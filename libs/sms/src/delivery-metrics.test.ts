import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { createMetrics } from '@sesame/platform';
import { HttpSmsSender, smsRefusedOrFailed } from './http-sender';
import { InvalidSmsError, SmsDeliveryError } from './port';

async function read(series: string[]): Promise<number[]> {
  const text = await createMetrics('auth', { defaultMetrics: false }).registry.metrics();
  return series.map((s) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(`${s} `))
        ?.split(' ')[1] ?? 0,
    ),
  );
}

describe('SMS delivery metrics', () => {
  it('counts sent, refused (the provider rejected it) and failed (unavailable) by transport', async () => {
    const series = ['sent', 'refused', 'failed'].map(
      (o) => `sesame_sms_messages_total{outcome="${o}",transport="http",service="auth"}`,
    );
    const before = await read(series);
    const answers = [
      new Response(JSON.stringify({ sid: 'SM1' }), { status: 201 }),
      new Response('{}', { status: 400 }),
      new Response('{}', { status: 503 }),
    ];
    const sender = new HttpSmsSender({
      url: 'https://sms.example/Messages.json',
      from: 'Sesame',
      fetch: async () => answers.shift()!,
    });
    const sms = { to: '+41791234567', text: 'code 123456' };
    assert.deepEqual(await sender.send(sms), { id: 'SM1' });
    await assert.rejects(
      sender.send(sms),
      (e: unknown) => e instanceof SmsDeliveryError && e.kind === 'rejected',
    );
    await assert.rejects(
      sender.send(sms),
      (e: unknown) => e instanceof SmsDeliveryError && e.kind === 'unavailable',
    );
    const after = await read(series);
    assert.deepEqual(
      after.map((v, i) => v - before[i]!),
      [1, 1, 1],
    );
    assert.equal(smsRefusedOrFailed(new InvalidSmsError(['to: not E.164'])), 'refused');
  });
});
