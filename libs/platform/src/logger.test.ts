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

describe('createLogger keeps codes, links and tokens of messages out of every line', () => {
  const token = 'Zm9vYmFyYmF6cXV4cXV1eF9saW5rX3Rva2VuXzEyMzQ';
  const flowId = '0b0e3c7e-6c8a-4d0e-9f4e-2f6f1a2b3c4d';

  it("a mail or text message object: subject, text, html, link and the provider form's Body never reach the line", () => {
    const { lines, stream } = capture();
    const logger = createLogger({ service: 'auth', level: 'trace', destination: stream });
    logger.trace(
      {
        mail: {
          subject: 'Your code for App is 492817',
          text: 'code 492817',
          html: '<b>492817</b>',
          kind: 'c',
        },
        sms: { to: '+41…67', body: `tap https://a.example/ciba/${token}` },
        Body: 'code 835112',
        link: `https://auth.example/link/${token}`,
      },
      'sending',
    );
    const line = JSON.parse(lines[0]!);
    assert.deepEqual(line.mail, {
      subject: '[redacted]',
      text: '[redacted]',
      html: '[redacted]',
      kind: 'c',
    });
    assert.deepEqual([line.sms.body, line.Body, line.link], ['[redacted]', '[redacted]', '[redacted]']);
    for (const secret of ['492817', '835112', token]) assert.ok(!lines[0]!.includes(secret), secret);
  });

  it('a link token in a path or url field becomes [redacted]; the route, ids and harmless query stay', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ service: 'auth', level: 'debug', destination: stream });
    logger.debug({ method: 'GET', path: `/link/${token}`, status: 200 }, 'http');
    logger.error({ path: `/flow/${flowId}/code` }, 'hosted page failed');
    logger.warn(
      {
        req: { url: `/register/m/${token}?lang=de&code=492817&token=abc` },
        endpoint: 'https://rp.example/cb',
      },
      'x',
    );
    const [http, hosted, nested] = lines.map((l) => JSON.parse(l));
    assert.equal(http.path, '/link/[redacted]');
    assert.equal(hosted.path, `/flow/${flowId}/code`);
    assert.equal(nested.req.url, '/register/m/[redacted]?lang=de&code=[redacted]&token=[redacted]');
    assert.equal(nested.endpoint, 'https://rp.example/cb');
    for (const secret of [token, '492817']) assert.ok(!lines.join('').includes(secret), secret);
  });

  it('credentials in a URL field or the message string become [redacted]; host and path stay', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ service: 'token', level: 'info', destination: stream });
    logger.info({ url: 'https://tenant-7:k3y-s3cret@collector.example:4318/v1/traces' }, 'tracing on');
    logger.warn('export to https://k3y-s3cret@collector.example/v1/traces failed');
    const [field, text] = lines.map((l) => JSON.parse(l));
    assert.equal(field.url, 'https://[redacted]@collector.example:4318/v1/traces');
    assert.equal(text.msg, 'export to https://[redacted]@collector.example/v1/traces failed');
    assert.ok(!lines.join('').includes('k3y-s3cret'));
  });

  it("a link in the message string, or in an error's message and stack, is scrubbed; an SMTP error's quoted reply is dropped", () => {
    const { lines, stream } = capture();
    const logger = createLogger({ service: 'mgmt', destination: stream });
    logger.info(`invitation sent: https://admin.example/console/invitations/${token}`);
    const err = Object.assign(new Error(`fetch https://auth.example/enroll/${token} failed`), {
      code: 'EMESSAGE',
      responseCode: 554,
      response: '554 refused: Subject: Your code for App is 492817',
      command: 'DATA',
    });
    logger.warn({ err }, 'mail not sent');
    const [info, warn] = lines.map((l) => JSON.parse(l));
    assert.equal(info.msg, 'invitation sent: https://admin.example/console/invitations/[redacted]');
    assert.equal(warn.err.message, 'fetch https://auth.example/enroll/[redacted] failed');
    assert.deepEqual(
      [warn.err.errorCode, warn.err.responseCode, warn.err.response, warn.err.command],
      ['EMESSAGE', 554, undefined, undefined],
    );
    for (const secret of [token, '492817']) assert.ok(!lines.join('').includes(secret), secret);
  });
});
