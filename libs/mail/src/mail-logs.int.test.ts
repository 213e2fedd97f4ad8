import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, describe, it } from '@jest/globals';
import { createLogger } from '@sesame/platform';
import { mailbox } from '@sesame/testing';
import { DevOutbox } from './dev-outbox';
import { MailDeliveryError, type OutgoingMail } from './port';
import { SmtpMailSender } from './smtp';
import { type Refusal, startRefusingSmtp } from './testing/refusing-smtp';

/** Every line a trace-level logger wrote, as text (what an attacker reading the logs sees). */
function capturingLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'mail-logs-test', level: 'trace', destination }) };
}

interface SecretMail {
  mail: OutgoingMail;
  /** What must never reach a log line: the code, the link's token, the whole link, the subject. */
  secrets: string[];
}

/**
 * The four mails Sesame sends, as their default templates render them: the subject of the code mail carries
 * the code ("Your code for {{app}} is {{code}}"), the others a link whose last segment is the token.
 */
function secretMails(tenantId: string): Record<string, SecretMail> {
  const code = String(100_000 + Math.floor(Math.random() * 900_000));
  const token = () => randomBytes(24).toString('base64url');
  const [magic, registration, invitation] = [token(), token(), token()];
  const to = (kind: string) => `${kind}-${randomUUID()}@logs.example.test`;
  const linked = (kind: string, subject: string, link: string, t: string): SecretMail => ({
    mail: {
      to: to(kind),
      subject,
      text: `Open this link to continue:\n${link}\n`,
      html: `<p><a href="${link}">Continue</a></p>`,
      kind,
      locale: 'de',
      tenantId,
    },
    secrets: [t, link, subject],
  });
  return {
    'sign-in-code': {
      mail: {
        to: to('sign-in-code'),
        subject: `Your code for Logs App is ${code}`,
        text: `Your sign-in code is ${code}. It expires in 10 minutes.\n`,
        html: `<p>Your sign-in code is <strong>${code}</strong>.</p>`,
        kind: 'sign-in-code',
        locale: 'de',
        tenantId,
      },
      secrets: [code, `Your code for Logs App is ${code}`],
    },
    'magic-link': linked(
      'magic-link',
      'Sign in to Logs App',
      `https://auth.logs.example/link/${magic}`,
      magic,
    ),
    'registration-link': linked(
      'registration-link',
      'Finish creating your Logs App account',
      `https://auth.logs.example/register/${registration}`,
      registration,
    ),
    'admin-invitation': linked(
      'admin-invitation',
      'You are invited to administer Logs App',
      `https://admin.logs.example/console/invitations/${invitation}`,
      invitation,
    ),
  };
}

function assertNoSecret(lines: string[], secrets: string[]) {
  const all = lines.join('');
  for (const secret of secrets) assert.ok(!all.includes(secret), `a log line contains ${secret}:\n${all}`);
}

/** The fields of the newest log line named `msg`. */
function lineOf(lines: string[], msg: string): Record<string, unknown> {
  const found = lines.map((l) => JSON.parse(l) as Record<string, unknown>).findLast((l) => l.msg === msg);
  assert.ok(found, `no "${msg}" line in:\n${lines.join('')}`);
  return found;
}

const smtpUrl = process.env.SESAME_SMTP_URL;
const box = mailbox();

describe('no mail subject, body, code, link or token in any log line, at trace level, on any path', () => {
  if (!smtpUrl)
    throw new Error('SESAME_SMTP_URL not set (run `npm test`, or `eval "$(npm run -s infra -- env)"`)');
  const tenantId = `tenant-${randomUUID()}`;
  const closing: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closing) await close();
  });

  it.each(['sign-in-code', 'magic-link', 'registration-link', 'admin-invitation'])(
    '%s: delivered through the real SMTP server; the log says kind, locale, tenant, message id and domain, nothing of the message',
    async (kind) => {
      const { lines, logger } = capturingLogger();
      const sender = new SmtpMailSender({ url: smtpUrl, from: 'Sesame <no-reply@sesame.test>', logger });
      closing.push(() => sender.close());
      const { mail, secrets } = secretMails(tenantId)[kind]!;
      const { id } = await sender.send(mail);
      const received = await box.waitForMessageTo(mail.to, { timeoutMs: 10_000 });
      assert.equal(received.subject, mail.subject, 'the mail itself still carries the subject');
      const sent = lineOf(lines, 'mail sent');
      assert.deepEqual(
        {
          kind: sent.kind,
          locale: sent.locale,
          tenantId: sent.tenantId,
          messageId: sent.messageId,
          toDomain: sent.toDomain,
        },
        { kind, locale: 'de', tenantId, messageId: id, toDomain: 'logs.example.test' },
      );
      assert.equal(sent.subject, undefined);
      assertNoSecret(lines, [...secrets, mail.to, mail.text, mail.html]);
    },
  );

  it.each([
    ['recipient', 550],
    ['content', 554],
    ['temporary', 451],
  ] as Array<[Refusal, number]>)(
    'a relay that refuses (%s, %i) and quotes the message back: neither the error nor a log line carries it',
    async (refusal, responseCode) => {
      const relay = await startRefusingSmtp(refusal);
      closing.push(() => relay.close());
      const { lines, logger } = capturingLogger();
      const sender = new SmtpMailSender({ url: relay.url, from: 'no-reply@sesame.test', logger });
      closing.push(() => sender.close());
      for (const { mail, secrets } of Object.values(secretMails(tenantId))) {
        const error = await sender.send(mail).then(
          () => assert.fail('send resolved'),
          (e: unknown) => e,
        );
        assert.ok(error instanceof MailDeliveryError);
        assert.equal(error.responseCode, responseCode);
        const everything = [...lines, JSON.stringify(error), error.message, String(error.stack)];
        assertNoSecret(everything, [...secrets, mail.to]);
        const failed = lineOf(lines, 'mail not sent');
        assert.deepEqual(
          [failed.kind, failed.locale, failed.tenantId, failed.responseCode, failed.subject],
          [mail.kind, 'de', tenantId, responseCode, undefined],
        );
      }
      // The hostile relay did quote it: the refusal text exists, only the logs never see it.
      if (refusal !== 'recipient') assert.ok(relay.received.some((l) => /^Subject:/i.test(l)));
    },
  );

  it('an unreachable relay (connection refused): the error and the log line carry no part of the message', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    const { lines, logger } = capturingLogger();
    const sender = new SmtpMailSender({
      url: `smtp://127.0.0.1:${port}`,
      from: 'no-reply@sesame.test',
      logger,
    });
    closing.push(() => sender.close());
    const { mail, secrets } = secretMails(tenantId)['sign-in-code']!;
    const error = await sender.send(mail).catch((e: unknown) => e);
    assert.ok(error instanceof MailDeliveryError);
    assertNoSecret([...lines, JSON.stringify(error), String(error.stack)], [...secrets, mail.to]);
    assert.equal(lineOf(lines, 'mail not sent').kind, 'sign-in-code');
  });

  it('a second attempt after a refusal goes through the real server; no attempt logs the message', async () => {
    const relay = await startRefusingSmtp('temporary');
    closing.push(() => relay.close());
    const { lines, logger } = capturingLogger();
    const refusing = new SmtpMailSender({ url: relay.url, from: 'no-reply@sesame.test', logger });
    const working = new SmtpMailSender({ url: smtpUrl, from: 'no-reply@sesame.test', logger });
    closing.push(
      () => refusing.close(),
      () => working.close(),
    );
    const { mail, secrets } = secretMails(tenantId)['magic-link']!;
    await assert.rejects(refusing.send(mail), MailDeliveryError);
    await working.send(mail);
    await box.waitForMessageTo(mail.to, { timeoutMs: 10_000 });
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { msg: string }).msg),
      ['mail not sent', 'mail sent'],
    );
    assertNoSecret(lines, [...secrets, mail.to]);
  });

  it('the development outbox logs what SMTP logs: kind, locale, tenant, message id and domain, no subject', async () => {
    const { lines, logger } = capturingLogger();
    const outbox = new DevOutbox({ logger });
    for (const { mail, secrets } of Object.values(secretMails(tenantId))) {
      const { id } = await outbox.send(mail);
      const kept = lines.map((l) => JSON.parse(l) as Record<string, unknown>).at(-1);
      assert.deepEqual(
        [kept?.kind, kept?.locale, kept?.tenantId, kept?.messageId, kept?.toDomain, kept?.subject],
        [mail.kind, 'de', tenantId, id, 'logs.example.test', undefined],
      );
      assertNoSecret(lines, [...secrets, mail.to]);
    }
  });
});
