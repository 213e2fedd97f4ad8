import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { smtpTransportOptions } from './smtp';

describe('smtpTransportOptions', () => {
  it('smtp:// is a pooled plain connection (STARTTLS when offered) on port 587 unless the URL says', () => {
    const options = smtpTransportOptions('smtp://relay.example.com');
    assert.equal(options.pool, true);
    assert.equal(options.host, 'relay.example.com');
    assert.equal(options.port, 587);
    assert.equal(options.secure, false);
    assert.equal(options.auth, undefined);
    assert.equal(smtpTransportOptions('smtp://127.0.0.1:2525').port, 2525);
  });

  it('smtps:// is TLS from the start on port 465, with percent-decoded credentials', () => {
    const options = smtpTransportOptions('smtps://mailer%40example.com:p%3Ass@relay.example.com');
    assert.equal(options.secure, true);
    assert.equal(options.port, 465);
    assert.deepEqual(options.auth, { user: 'mailer@example.com', pass: 'p:ss' });
  });

  it('an IPv6 host loses its brackets', () => {
    assert.equal(smtpTransportOptions('smtp://[::1]:25').host, '::1');
  });

  it('refuses another scheme or a non-URL without repeating the value', () => {
    assert.throws(() => smtpTransportOptions('http://u:hunter2@relay.example.com'), {
      name: 'TypeError',
      message: 'SMTP URL must start with smtp:// or smtps://, not http://',
    });
    assert.throws(() => smtpTransportOptions('hunter2'), {
      name: 'TypeError',
      message: 'SMTP URL is not a valid URL',
    });
  });

  it("nodemailer's own logger and debug stay off whatever the URL's query asks (they would print the SMTP dialogue, so the code)", () => {
    const options = smtpTransportOptions(
      'smtp://relay.example.com/?debug=true&logger=true&transactionLog=true',
    );
    assert.deepEqual([options.logger, options.debug, 'transactionLog' in options], [false, false, false]);
  });
});
