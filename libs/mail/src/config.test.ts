import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { ConfigError, baseConfigSchema, createLogger, loadConfig } from '@sesame/platform';
import { createMailSender, mailConfigSchema } from './config';
import { DevOutbox } from './dev-outbox';
import { SmtpMailSender } from './smtp';

const schema = baseConfigSchema.merge(mailConfigSchema);
const logger = createLogger({ service: 'test', level: 'silent' });

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(schema, env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

describe('mailConfigSchema', () => {
  it('leaves SESAME_SMTP_URL unset (also when empty) and defaults SESAME_MAIL_FROM', () => {
    for (const env of [{}, { SESAME_SMTP_URL: '' }]) {
      const config = loadConfig(mailConfigSchema, env);
      assert.equal(config.SESAME_SMTP_URL, undefined);
      assert.equal(config.SESAME_MAIL_FROM, 'Sesame <no-reply@localhost>');
    }
  });

  it('accepts smtp:// and smtps:// URLs, with or without credentials', () => {
    for (const url of ['smtp://127.0.0.1:2525', 'smtps://user:p%40ss@mail.example.com', 'smtp://[::1]:25']) {
      assert.equal(loadConfig(mailConfigSchema, { SESAME_SMTP_URL: url }).SESAME_SMTP_URL, url);
    }
  });

  it('refuses other schemes and non-URLs, naming the variable and never echoing the value', () => {
    const bad = {
      'http://user:hunter2@mail.example.com': 'must start with smtp:// or smtps://',
      'mail.example.com:hunter2': 'must start with smtp:// or smtps://',
      'not a url hunter2': 'must be a URL (smtp://host:port or smtps://host:port)',
      'smtp://': 'must name a host',
    };
    for (const [url, message] of Object.entries(bad)) {
      assert.deepEqual(problemsOf({ SESAME_SMTP_URL: url }), [`SESAME_SMTP_URL: ${message}`], url);
    }
  });

  it('refuses an empty SESAME_MAIL_FROM', () => {
    assert.equal(problemsOf({ SESAME_MAIL_FROM: ' ' })[0]?.startsWith('SESAME_MAIL_FROM: '), true);
  });
});

describe('createMailSender', () => {
  it('sends over SMTP whenever SESAME_SMTP_URL is set, in every environment', async () => {
    for (const SESAME_ENV of ['development', 'production'] as const) {
      const sender = createMailSender(
        { SESAME_ENV, SESAME_SMTP_URL: 'smtp://127.0.0.1:2525', SESAME_MAIL_FROM: 'a@example.com' },
        logger,
      );
      assert.ok(sender instanceof SmtpMailSender, SESAME_ENV);
      await sender.close();
    }
  });

  it('keeps mail in the development outbox without SESAME_SMTP_URL in development and test', () => {
    for (const SESAME_ENV of ['development', 'test'] as const) {
      const config = loadConfig(schema, { SESAME_ENV });
      assert.ok(createMailSender(config, logger) instanceof DevOutbox, SESAME_ENV);
    }
  });

  it('refuses to start without SESAME_SMTP_URL in sandbox, production and production-eu', () => {
    for (const SESAME_ENV of ['sandbox', 'production', 'production-eu'] as const) {
      const config = loadConfig(schema, { SESAME_ENV });
      assert.throws(
        () => createMailSender(config, logger),
        (e: unknown) =>
          e instanceof ConfigError &&
          e.problems.length === 1 &&
          e.problems[0]?.startsWith(`SESAME_SMTP_URL: required in ${SESAME_ENV}`) === true,
      );
    }
  });

  it('follows the kind of a region, not its name', () => {
    const dev = loadConfig(schema, { SESAME_ENV: 'laptop-eu', SESAME_ENV_KIND: 'development' });
    assert.ok(createMailSender(dev, logger) instanceof DevOutbox);
    const prod = loadConfig(schema, { SESAME_ENV: 'production-us', SESAME_ENV_KIND: 'production' });
    assert.throws(
      () => createMailSender(prod, logger),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.problems[0]?.startsWith('SESAME_SMTP_URL: required in production-us') === true,
    );
  });
});
