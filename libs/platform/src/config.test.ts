import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, baseConfigSchema, loadConfig, refuseInProduction, requireStoreUrls } from './config';

describe('loadConfig', () => {
  const schema = baseConfigSchema.extend({ WIDGETS: z.coerce.number().int().positive() });

  it('parses, applies defaults and freezes', () => {
    const config = loadConfig(schema, { WIDGETS: '3' });
    assert.equal(config.WIDGETS, 3);
    assert.equal(config.SESAME_ENV, 'development');
    assert.equal(config.HTTP_PORT, 8080);
    assert.ok(Object.isFrozen(config));
  });

  it('names every wrong or missing variable', () => {
    assert.throws(
      () => loadConfig(schema, { HTTP_PORT: 'eighty', SESAME_ENV: 'prod' }),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.problems.some((p) => p.startsWith('HTTP_PORT:')) &&
        err.problems.some((p) => p.startsWith('SESAME_ENV:')) &&
        err.problems.some((p) => p.startsWith('WIDGETS:')) &&
        err.problems.length === 3,
    );
  });

  it('reads the Kafka topic replication; refuses min.insync.replicas above the replication factor, naming both', () => {
    const config = loadConfig(baseConfigSchema, {
      SESAME_KAFKA_REPLICATION_FACTOR: '3',
      SESAME_KAFKA_MIN_INSYNC_REPLICAS: '2',
    });
    assert.deepEqual(
      [config.SESAME_KAFKA_REPLICATION_FACTOR, config.SESAME_KAFKA_MIN_INSYNC_REPLICAS],
      [3, 2],
    );
    const unset = loadConfig(baseConfigSchema, {});
    assert.deepEqual(
      [unset.SESAME_KAFKA_REPLICATION_FACTOR, unset.SESAME_KAFKA_MIN_INSYNC_REPLICAS],
      [undefined, undefined],
    );
    assert.throws(
      () =>
        loadConfig(baseConfigSchema, {
          SESAME_KAFKA_REPLICATION_FACTOR: '1',
          SESAME_KAFKA_MIN_INSYNC_REPLICAS: '2',
        }),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.problems.length === 1 &&
        err.problems[0] ===
          'SESAME_KAFKA_MIN_INSYNC_REPLICAS: 2 is above SESAME_KAFKA_REPLICATION_FACTOR (1)',
    );
    assert.throws(
      () => loadConfig(baseConfigSchema, { SESAME_KAFKA_REPLICATION_FACTOR: '0' }),
      (err: unknown) =>
        err instanceof ConfigError && err.problems[0]!.startsWith('SESAME_KAFKA_REPLICATION_FACTOR:'),
    );
  });

  it('requires real store URLs in production but not in development', () => {
    const dev = loadConfig(baseConfigSchema, {});
    assert.doesNotThrow(() => requireStoreUrls(dev, ['SESAME_REDIS_URL']));
    const prod = loadConfig(baseConfigSchema, {
      SESAME_ENV: 'production-eu',
      SESAME_MONGO_URL: 'mongodb://m/x',
    });
    assert.throws(
      () => requireStoreUrls(prod, ['SESAME_REDIS_URL', 'SESAME_MONGO_URL']),
      (err: unknown) =>
        err instanceof ConfigError && err.problems.join() === 'SESAME_REDIS_URL: required in production-eu',
    );
  });

  it('with requiredStores, refuses a production-like environment without them (as requireStoreUrls)', () => {
    assert.doesNotThrow(() => loadConfig(baseConfigSchema, {}, ['SESAME_REDIS_URL']));
    assert.throws(
      () =>
        loadConfig(baseConfigSchema, { SESAME_ENV: 'production-eu', SESAME_MONGO_URL: 'mongodb://m/x' }, [
          'SESAME_REDIS_URL',
          'SESAME_MONGO_URL',
        ]),
      (err: unknown) =>
        err instanceof ConfigError && err.problems.join() === 'SESAME_REDIS_URL: required in production-eu',
    );
    assert.equal(
      loadConfig(baseConfigSchema, { SESAME_ENV: 'production-eu', SESAME_REDIS_URL: 'redis://r:6379' }, [
        'SESAME_REDIS_URL',
      ]).SESAME_REDIS_URL,
      'redis://r:6379',
    );
  });

  it('refuses an insecure default only in production-like environments', () => {
    assert.doesNotThrow(() => refuseInProduction('sandbox', true, 'KEY: default refused'));
    assert.throws(
      () => refuseInProduction('production', true, 'KEY: default refused'),
      /KEY: default refused/,
    );
    assert.doesNotThrow(() => refuseInProduction('production', false, 'KEY: default refused'));
  });
});
