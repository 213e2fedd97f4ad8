import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { ConfigError } from '@sesame/platform';
import { DEV_CLIENT_SECRET_KEYS, loadMgmtConfig } from './config';

describe('loadMgmtConfig admin key', () => {
  it('refuses the once-published dev-admin-key in every environment', () => {
    for (const SESAME_ENV of ['development', 'test', 'sandbox']) {
      assert.throws(
        () => loadMgmtConfig({ SESAME_ENV, SESAME_ADMIN_KEY: 'dev-admin-key' }),
        (err: unknown) =>
          err instanceof ConfigError && /SESAME_ADMIN_KEY: a published key is refused/.test(err.message),
      );
    }
  });

  it('has no default key: unset, the admin API is closed rather than open with a known key', () => {
    assert.equal(loadMgmtConfig({ SESAME_ENV: 'development' }).SESAME_ADMIN_KEY, undefined);
  });
});

describe('loadMgmtConfig client secret keys', () => {
  const key = (fill: number) => Buffer.alloc(32, fill).toString('base64url');

  it('refuses the development key ring in production, alone or beside a real key', () => {
    for (const keys of [undefined, `k2:${key(2)},${DEV_CLIENT_SECRET_KEYS}`]) {
      assert.throws(
        () =>
          loadMgmtConfig({
            SESAME_ENV: 'production',
            SESAME_ADMIN_KEY: 'a'.repeat(40),
            SESAME_MONGO_URL: 'mongodb://m/s',
            SESAME_REDIS_URL: 'redis://r',
            SESAME_KAFKA_BROKERS: 'k:9092',
            ...(keys ? { SESAME_CLIENT_SECRET_KEYS: keys } : {}),
          }),
        (err: unknown) => err instanceof ConfigError && /SESAME_CLIENT_SECRET_KEYS/.test(err.message),
      );
    }
  });

  it('refuses a key that is not 32 bytes, an entry without an id, and a repeated id', () => {
    for (const keys of [`k1:${Buffer.alloc(16).toString('base64url')}`, key(1), `a:${key(1)},a:${key(2)}`]) {
      assert.throws(
        () => loadMgmtConfig({ SESAME_ENV: 'test', SESAME_CLIENT_SECRET_KEYS: keys }),
        (err: unknown) => err instanceof ConfigError && /SESAME_CLIENT_SECRET_KEYS/.test(err.message),
      );
    }
  });

  it('takes a ring of real keys in production', () => {
    const config = loadMgmtConfig({
      SESAME_ENV: 'production',
      SESAME_ADMIN_KEY: 'a'.repeat(40),
      SESAME_MONGO_URL: 'mongodb://m/s',
      SESAME_REDIS_URL: 'redis://r',
      SESAME_KAFKA_BROKERS: 'k:9092',
      SESAME_CLIENT_SECRET_KEYS: `k2:${key(2)},k1:${key(1)}`,
    });
    assert.equal(config.SESAME_CLIENT_SECRET_KEYS, `k2:${key(2)},k1:${key(1)}`);
  });
});

describe('loadMgmtConfig break-glass', () => {
  const production = {
    SESAME_ENV: 'production',
    SESAME_ADMIN_KEY: 'a'.repeat(40),
    SESAME_MONGO_URL: 'mongodb://m/s',
    SESAME_REDIS_URL: 'redis://r',
    SESAME_KAFKA_BROKERS: 'k:9092',
    SESAME_CLIENT_SECRET_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64url')}`,
  };

  it('is off by default', () => {
    assert.equal(loadMgmtConfig({ SESAME_ENV: 'development' }).SESAME_ADMIN_BREAK_GLASS, 'off');
  });

  it('production refuses `on` and a stale or far on-until, and starts with on-until within 24 hours', () => {
    const refused = (value: string) =>
      assert.throws(
        () => loadMgmtConfig({ ...production, SESAME_ADMIN_BREAK_GLASS: value }),
        (err: unknown) => err instanceof ConfigError && /SESAME_ADMIN_BREAK_GLASS/.test(err.message),
        value,
      );
    refused('on');
    refused(`on-until:${new Date(Date.now() - 60_000).toISOString()}`);
    refused(`on-until:${new Date(Date.now() + 25 * 3_600_000).toISOString()}`);
    const soon = `on-until:${new Date(Date.now() + 3_600_000).toISOString()}`;
    assert.equal(
      loadMgmtConfig({ ...production, SESAME_ADMIN_BREAK_GLASS: soon }).SESAME_ADMIN_BREAK_GLASS,
      soon,
    );
  });

  it('development takes `on`; every environment refuses an unknown value', () => {
    assert.equal(
      loadMgmtConfig({ SESAME_ENV: 'development', SESAME_ADMIN_BREAK_GLASS: 'on' }).SESAME_ADMIN_BREAK_GLASS,
      'on',
    );
    assert.throws(
      () => loadMgmtConfig({ SESAME_ENV: 'development', SESAME_ADMIN_BREAK_GLASS: 'yes' }),
      (err: unknown) => err instanceof ConfigError && /SESAME_ADMIN_BREAK_GLASS/.test(err.message),
    );
  });
});
