import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import { repoRoot } from '@sesame/testing';
import { ConfigError, baseConfigSchema, loadConfig } from './config';
import { grpcTlsOf } from './grpc-tls';

const files = {
  SESAME_GRPC_TLS_CA: '/etc/sesame/grpc-tls/ca.crt',
  SESAME_GRPC_TLS_CERT: '/etc/sesame/grpc-tls/tls.crt',
  SESAME_GRPC_TLS_KEY: '/etc/sesame/grpc-tls/tls.key',
};

describe('grpcTlsOf', () => {
  it('is plaintext (undefined) in development when no file is set', () => {
    assert.equal(grpcTlsOf(loadConfig(baseConfigSchema, {})), undefined);
  });

  it('returns the three files and the refresh interval when all are set', () => {
    assert.deepEqual(grpcTlsOf(loadConfig(baseConfigSchema, files)), {
      ca: files.SESAME_GRPC_TLS_CA,
      cert: files.SESAME_GRPC_TLS_CERT,
      key: files.SESAME_GRPC_TLS_KEY,
      refreshMs: 60_000,
    });
  });

  it('refuses production and production-eu without the files, naming each variable', () => {
    for (const env of ['production', 'production-eu']) {
      assert.throws(
        () => grpcTlsOf(loadConfig(baseConfigSchema, { SESAME_ENV: env })),
        (err: unknown) =>
          err instanceof ConfigError &&
          Object.keys(files).every((v) => err.problems.some((p) => p.startsWith(`${v}: required in ${env}`))),
      );
    }
  });

  it('refuses a partial set of files', () => {
    assert.throws(
      () => grpcTlsOf(loadConfig(baseConfigSchema, { SESAME_GRPC_TLS_CA: files.SESAME_GRPC_TLS_CA })),
      ConfigError,
    );
  });

  it('a service started in production without the files exits 78 and names them', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'services/activity-log/src/main.ts')],
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH,
          SESAME_ENV: 'production',
          SESAME_KAFKA_BROKERS: '127.0.0.1:1',
          SESAME_MONGO_URL: 'mongodb://127.0.0.1:1/x',
        },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    assert.equal(run.status, 78, run.stderr);
    assert.match(run.stderr, /SESAME_GRPC_TLS_CA: required in production/);
  });
});
