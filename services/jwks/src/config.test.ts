import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { ConfigError } from '@sesame/platform';
import { keyTimings, loadJwksConfig } from './config';

const prodEnv = { SESAME_ENV: 'production', SESAME_MONGO_URL: 'mongodb://db/sesame' };

describe('jwks config', () => {
  it('refuses to start in production with the development key-encryption key', () => {
    assert.throws(
      () => loadJwksConfig(prodEnv),
      (err: ConfigError) => {
        assert.ok(err instanceof ConfigError);
        assert.match(
          err.message,
          /SESAME_KEY_ENCRYPTION_KEY: the development default is refused in production/,
        );
        return true;
      },
    );
  });

  it('refuses a key-encryption key that is not 32 bytes', () => {
    assert.throws(
      () => loadJwksConfig({ SESAME_KEY_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64url') }),
      /SESAME_KEY_ENCRYPTION_KEY: must be 32 bytes/,
    );
  });

  it('publishes new keys 60 s before use in deployed environments and 2 s in development', () => {
    const kek = Buffer.alloc(32, 7).toString('base64url');
    const prod = keyTimings(loadJwksConfig({ ...prodEnv, SESAME_KEY_ENCRYPTION_KEY: kek }));
    assert.deepEqual(prod, {
      rotationIntervalMs: 30 * 86_400_000,
      publishDelayMs: 60_000,
      retireAfterMs: 3_900_000,
    });
    assert.equal(
      keyTimings(loadJwksConfig({ SESAME_ENV: 'sandbox', SESAME_MONGO_URL: 'mongodb://x' })).publishDelayMs,
      60_000,
    );
    assert.equal(keyTimings(loadJwksConfig({})).publishDelayMs, 2_000);
    assert.equal(keyTimings(loadJwksConfig({ SESAME_KEY_PUBLISH_DELAY_MS: '0' })).publishDelayMs, 0);
  });

  it('turns scheduled rotation off with an interval of 0', () => {
    assert.equal(keyTimings(loadJwksConfig({ SESAME_KEY_ROTATION_INTERVAL_MS: '0' })).rotationIntervalMs, 0);
  });
});
