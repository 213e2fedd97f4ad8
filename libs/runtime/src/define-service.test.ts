import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { type BaseConfig, baseConfigSchema, createLogger } from '@sesame/platform';
import { defineService } from './define-service';
import type { ServiceOverrides } from './open-service';

describe('defineService', () => {
  const config = baseConfigSchema.parse({ SESAME_ENV: 'test', LOG_LEVEL: 'warn' });

  it('builds on the basics with the config and overrides given, and fills in name, logger and metrics', async () => {
    const logger = createLogger({ service: 'given', level: 'silent' });
    const seen: { config?: BaseConfig; overrides?: ServiceOverrides } = {};
    const create = defineService<BaseConfig, ServiceOverrides>('svc-c', { kv: true }, async (basics) => {
      seen.config = basics.config;
      seen.overrides = basics.overrides;
      assert.equal(basics.logger, logger);
      assert.ok(basics.stores.kv);
      return {};
    });
    const overrides = { logger };
    const mod = await create(config, overrides);
    try {
      assert.equal(seen.config, config);
      assert.equal(seen.overrides, overrides);
      assert.equal(mod.name, 'svc-c');
      assert.equal(mod.logger, logger);
      assert.match(await mod.metrics.registry.metrics(), /service="svc-c"/);
    } finally {
      await mod.stop();
    }
  });

  it("keeps the service's parts; readiness: the stores' checks, then its own; stop: its own, then the stores", async () => {
    const order: string[] = [];
    const own = { name: 'own', check: async () => {} };
    const storeCheck = { name: 'store', check: async () => {} };
    const start = async () => {};
    const create = defineService<BaseConfig, ServiceOverrides>('svc-d', { kv: true }, async ({ stores }) => {
      stores.readiness.push(storeCheck);
      const close = stores.close;
      stores.close = async () => {
        order.push('stores closed');
        await close();
      };
      return {
        readiness: [own],
        start,
        stop: async () => {
          order.push('service stopped');
        },
      };
    });
    const mod = await create(config);
    assert.equal(mod.start, start);
    assert.deepEqual(mod.readiness, [storeCheck, own]);
    await mod.stop();
    assert.deepEqual(order, ['service stopped', 'stores closed']);
  });
});
