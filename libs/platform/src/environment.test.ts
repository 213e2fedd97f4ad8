import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { ConfigError, baseConfigSchema, loadConfig, refuseInProduction, requireStoreUrls } from './config';
import { isDevelopmentLike, isProductionLike, kindOf } from './environment';
import { grpcTlsOf } from './grpc-tls';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(baseConfigSchema, env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

describe('environments as data: a name and a kind', () => {
  it('keeps the kind of every named environment, without SESAME_ENV_KIND', () => {
    const kinds = Object.fromEntries(
      ['development', 'test', 'sandbox', 'production', 'production-eu'].map((name) => [
        name,
        loadConfig(baseConfigSchema, { SESAME_ENV: name }).SESAME_ENV_KIND,
      ]),
    );
    assert.deepEqual(kinds, {
      development: 'development',
      test: 'test',
      sandbox: 'sandbox',
      production: 'production',
      'production-eu': 'production',
    });
  });

  it('accepts any region name with its kind, and the production rules follow the kind', () => {
    const config = loadConfig(baseConfigSchema, { SESAME_ENV: 'ap-cell-7', SESAME_ENV_KIND: 'production' });
    assert.equal(config.SESAME_ENV, 'ap-cell-7');
    assert.equal(config.SESAME_ENV_KIND, 'production');
    assert.throws(
      () => requireStoreUrls(config, ['SESAME_MONGO_URL']),
      (err: unknown) =>
        err instanceof ConfigError && err.problems.join() === 'SESAME_MONGO_URL: required in ap-cell-7',
    );
    assert.throws(
      () => grpcTlsOf(config),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.problems[0] === 'SESAME_GRPC_TLS_CA: required in ap-cell-7 (gRPC runs over mTLS)',
    );
    // A rule given only the name follows the kind the loaded configuration declared.
    assert.throws(() => refuseInProduction(config.SESAME_ENV, true, 'KEY: refused'), /KEY: refused/);
  });

  it('gives a sandbox-kind or development-kind region the rules of its kind, whatever its name', () => {
    const sandbox = loadConfig(baseConfigSchema, { SESAME_ENV: 'production-ap', SESAME_ENV_KIND: 'sandbox' });
    assert.equal(isProductionLike(sandbox), false);
    assert.equal(isDevelopmentLike(sandbox), false);
    assert.equal(grpcTlsOf(sandbox), undefined);
    assert.doesNotThrow(() => requireStoreUrls(sandbox, ['SESAME_MONGO_URL']));
    const dev = loadConfig(baseConfigSchema, { SESAME_ENV: 'laptop', SESAME_ENV_KIND: 'development' });
    assert.equal(isDevelopmentLike(dev), true);
    assert.equal(kindOf(dev), 'development');
    // A bare name carries no declared kind: rules take the configuration, and an unknown name alone is
    // treated as production (the strictest rules), never as the kind some other configuration declared.
    assert.equal(kindOf('laptop'), 'production');
  });

  it('refuses a new name without a kind, naming SESAME_ENV', () => {
    const problems = problemsOf({ SESAME_ENV: 'us-east' });
    assert.equal(problems.length, 1);
    assert.match(problems[0] ?? '', /^SESAME_ENV: us-east is not one of .*sets SESAME_ENV_KIND/);
  });

  it('refuses a kind that contradicts a named environment, naming SESAME_ENV_KIND', () => {
    assert.deepEqual(problemsOf({ SESAME_ENV: 'production-eu', SESAME_ENV_KIND: 'development' }), [
      'SESAME_ENV_KIND: production-eu is a production environment; give a region of kind development its own name',
    ]);
    assert.deepEqual(problemsOf({ SESAME_ENV: 'production', SESAME_ENV_KIND: 'production' }), []);
  });

  it('refuses a name that is not a DNS label and an unknown kind with the schema message', () => {
    const problems = problemsOf({ SESAME_ENV: 'Prod EU', SESAME_ENV_KIND: 'staging' });
    assert.equal(problems.length, 2);
    assert.ok(problems.some((p) => p.startsWith('SESAME_ENV: must be a DNS label')));
    assert.ok(problems.some((p) => p.startsWith('SESAME_ENV_KIND:')));
  });

  it('treats a name no configuration declared as production: the strictest rules, never the most lenient', () => {
    assert.equal(kindOf('never-loaded-region'), 'production');
    assert.equal(kindOf({ SESAME_ENV: 'never-loaded-region', SESAME_ENV_KIND: 'sandbox' }), 'sandbox');
  });
});
