import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, describe, it } from '@jest/globals';
import { createLogger } from '@sesame/platform';
import { mailbox } from '@sesame/testing';
import { MailDeliveryError } from './port';
import { SmtpMailSender } from './smtp';

/** A logger whose lines the test can read back. */
function capturingLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'mail-test', level: 'debug', destination }) };
}

/** A loopback port nothing listens on: bound, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const smtpUrl = process.env.SESAME_SMTP_URL;
const box = mailbox();

describe('SmtpMailSender against the real test SMTP server', () => {
  if (!smtpUrl)
    throw new Error('SESAME_SMTP_URL not set (run `npm test`, or `eval "$(npm run -s infra -- env)"`)');
  const { lines, logger } = capturingLogger();
  const sender = new SmtpMailSender({ url: smtpUrl, from: 'Sesame Test <no-reply@sesame.test>', logger });
  afterAll(() => sender.close());

  it('delivers exactly the to, subject, text and html it was given, and logs neither the subject nor the body', async () => {
    const to = `mail-${randomUUID()}@example.test`;
    const mail = {
      to,
      subject: 'Your Sesame code: 492817',
      text: 'Your code is 492817.\nOr open https://auth.example.test/magic/abcDEF123\n',
      html: '<p>Your code is <b>492817</b>.</p><p><a href="https://auth.example.test/magic/abcDEF123">Sign in</a></p>',
    };
    const { id } = await sender.send(mail);
    const received = await box.waitForMessageTo(to, { timeoutMs: 10_000 });
    assert.deepEqual(
      { id: received.id, to: received.to, from: received.from, subject: received.subject },
      { id, to, from: '"Sesame Test" <no-reply@sesame.test>', subject: mail.subject },
    );
    assert.equal(received.text, mail.text);
    assert.equal(received.html, mail.html);

    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const sent = logged.find((l) => l.msg === 'mail sent');
    assert.deepEqual(
      { toDomain: sent?.toDomain, subject: sent?.subject, messageId: sent?.messageId },
      { toDomain: 'example.test', subject: undefined, messageId: id },
    );
    const all = lines.join('');
    for (const secret of ['492817', 'abcDEF123', 'Your code is', to])
      assert.ok(!all.includes(secret), secret);
  });

  it('waitForMessageTo with `after` waits for a message newer than that moment', async () => {
    const to = `mail-${randomUUID()}@example.test`;
    await sender.send({ to, subject: 'first', text: 'one', html: '<p>one</p>' });
    await box.waitForMessageTo(to, { timeoutMs: 10_000 });
    const after = new Date();
    await assert.rejects(box.waitForMessageTo(to, { timeoutMs: 300, after }), /no mail to .* since/);
    await sender.send({ to, subject: 'second', text: 'two', html: '<p>two</p>' });
    assert.equal((await box.waitForMessageTo(to, { timeoutMs: 10_000, after })).subject, 'second');
    assert.deepEqual(
      (await box.messagesTo(to)).map((m) => m.subject),
      ['second', 'first'],
    );
  });

  it("the test mailbox's DELETE /messages?to= forgets that address's mail and no other", async () => {
    const [gone, kept] = [`mail-${randomUUID()}@example.test`, `mail-${randomUUID()}@example.test`];
    for (const to of [gone, kept]) {
      await sender.send({ to, subject: 'x', text: 'x', html: '<p>x</p>' });
      await box.waitForMessageTo(to, { timeoutMs: 10_000 });
    }
    const url = new URL('/messages', process.env.SESAME_TEST_MAILBOX_URL);
    url.searchParams.set('to', gone);
    assert.equal((await fetch(url, { method: 'DELETE' })).status, 204);
    assert.deepEqual(await box.messagesTo(gone), []);
    assert.equal((await box.messagesTo(kept)).length, 1);
  });

  it('a send to a closed port rejects with MailDeliveryError that carries no credentials', async () => {
    const port = await closedPort();
    const { lines: failLines, logger: failLogger } = capturingLogger();
    const failing = new SmtpMailSender({
      url: `smtp://mailer:hunter2@127.0.0.1:${port}`,
      from: 'no-reply@sesame.test',
      logger: failLogger,
    });
    try {
      const error = await failing
        .send({ to: 'someone@example.test', subject: 's', text: 't', html: '<p>h</p>' })
        .then(
          () => assert.fail('send resolved'),
          (e: unknown) => e,
        );
      assert.ok(error instanceof MailDeliveryError);
      assert.equal(error.message, 'mail delivery to example.test failed (ESOCKET)');
      assert.equal(error.cause, undefined);
      const everything = `${JSON.stringify(error)} ${error.stack} ${failLines.join('')}`;
      for (const secret of ['hunter2', 'mailer']) assert.ok(!everything.includes(secret), secret);
    } finally {
      await failing.close();
    }
  });

  it("a tenant's sender name goes out from the configured address; a header-forging name is refused", async () => {
    const to = `brand-${randomUUID()}@example.test`;
    await sender.send({
      to,
      subject: 'Hi',
      text: 'x',
      html: '<p>x</p>',
      fromName: 'ACME Team',
      replyTo: 'help@acme.example',
    });
    const received = await box.waitForMessageTo(to, { timeoutMs: 10_000 });
    assert.equal(received.from, '"ACME Team" <no-reply@sesame.test>');
    await assert.rejects(
      sender.send({
        to,
        subject: 'Hi',
        text: 'x',
        html: 'x',
        fromName: 'Evil" <a@evil.example>\r\nBcc: x@y',
      }),
      /fromName/,
    );
  });
});
