import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { loadCibaNotifierConfig, notificationPolicy } from './config';

const prod = {
  SESAME_ENV: 'production',
  SESAME_REDIS_URL: 'redis://r:6379',
  SESAME_KAFKA_BROKERS: 'k:9092',
};

describe('ciba-notifier: where pings may go', () => {
  it('a production environment refuses to start with SESAME_ALLOW_LOOPBACK_NOTIFICATIONS', () => {
    assert.throws(
      () => loadCibaNotifierConfig({ ...prod, SESAME_ALLOW_LOOPBACK_NOTIFICATIONS: 'true' }),
      /SESAME_ALLOW_LOOPBACK_NOTIFICATIONS/,
    );
  });

  it('production: https to public addresses only', () => {
    assert.deepEqual(notificationPolicy(loadCibaNotifierConfig(prod)), {
      allowHttp: false,
      allowLoopback: false,
    });
  });

  it('development allows http and loopback unless told otherwise; test allows loopback only when told', () => {
    const cases: [Record<string, string>, { allowHttp: boolean; allowLoopback: boolean }][] = [
      [{ SESAME_ENV: 'development' }, { allowHttp: true, allowLoopback: true }],
      [
        { SESAME_ENV: 'development', SESAME_ALLOW_LOOPBACK_NOTIFICATIONS: 'false' },
        { allowHttp: true, allowLoopback: false },
      ],
      [{ SESAME_ENV: 'test' }, { allowHttp: true, allowLoopback: false }],
      [
        { SESAME_ENV: 'test', SESAME_ALLOW_LOOPBACK_NOTIFICATIONS: 'true' },
        { allowHttp: true, allowLoopback: true },
      ],
    ];
    for (const [env, policy] of cases) {
      assert.deepEqual(notificationPolicy(loadCibaNotifierConfig(env)), policy);
    }
  });
});
