import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { createLogger, createMetrics } from '@sesame/platform';
import { DevOutbox } from './dev-outbox';
import { InvalidMailError, MailDeliveryError } from './port';
import { SmtpMailSender, refusedOrFailed } from './smtp';

const logger = createLogger({ service: 'test', level: 'silent' });
const mail = { to: 'a@example.com', subject: 'Code', text: 't', html: '<p>t</p>' };

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

describe('mail delivery metrics', () => {
  it('classifies a permanent 5xx and an unusable message as refused, anything else as failed', () => {
    assert.equal(refusedOrFailed(new MailDeliveryError('x', 'EENVELOPE', 550)), 'refused');
    assert.equal(refusedOrFailed(new InvalidMailError(['to: must be one email address'])), 'refused');
    assert.equal(refusedOrFailed(new MailDeliveryError('x', 'EENVELOPE', 451)), 'failed');
    assert.equal(refusedOrFailed(new MailDeliveryError('x', 'ECONNREFUSED', undefined)), 'failed');
  });

  it('counts and times every send by outcome and transport, on every service registry', async () => {
    const series = [
      'sesame_mail_messages_total{outcome="sent",transport="outbox",service="auth"}',
      'sesame_mail_messages_total{outcome="refused",transport="outbox",service="auth"}',
      'sesame_mail_messages_total{outcome="failed",transport="smtp",service="auth"}',
      'sesame_mail_send_duration_seconds_count{service="auth",outcome="failed",transport="smtp"}',
    ];
    const before = await read(series);
    const outbox = new DevOutbox({ logger });
    await outbox.send(mail);
    await outbox.send(mail);
    await assert.rejects(outbox.send({ ...mail, to: 'not an address' }), InvalidMailError);
    // Nothing listens on port 1: the connection is refused, a failure a retry may get past.
    const smtp = new SmtpMailSender({ url: 'smtp://127.0.0.1:1', from: 'a@example.com', logger });
    await assert.rejects(smtp.send(mail), MailDeliveryError);
    await smtp.close();
    const after = await read(series);
    assert.deepEqual(
      after.map((v, i) => v - before[i]!),
      [2, 1, 1, 1],
    );
  });
});
