import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { ConfigError } from '@sesame/platform';
import { loadMgmtConfig } from './config';

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
