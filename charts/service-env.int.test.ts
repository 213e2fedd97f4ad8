// Every service must start with exactly the environment the chart gives it: a variable the config requires in
// production (an SMTP relay, the code-hash key, …) that the chart forgets is a pod that never becomes ready.
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { createMailSender } from '../libs/mail/src/index';
import { createLogger } from '../libs/platform/src/index';
import { createSmsSender } from '../libs/sms/src/index';
import { loadActivityLogConfig } from '../services/activity-log/src/config';
import { loadAuthConfig } from '../services/auth/src/config';
import { loadCibaNotifierConfig } from '../services/ciba-notifier/src/config';
import { loadJwksConfig } from '../services/jwks/src/config';
import { loadMgmtConfig } from '../services/mgmt/src/config';
import { loadTokenConfig } from '../services/token/src/config';
import { type Manifest, environments, ofKind, render, serviceOf } from './render';

const loaders: Record<string, (env: Record<string, string>) => unknown> = {
  auth: loadAuthConfig,
  token: loadTokenConfig,
  jwks: loadJwksConfig,
  mgmt: loadMgmtConfig,
  'activity-log': loadActivityLogConfig,
  'ciba-notifier': loadCibaNotifierConfig,
};

/** A value of the right shape for a variable the chart takes from a Secret (the test never sees secrets). */
function secretValue(name: string): string {
  if (name === 'SESAME_REDIS_URL') return 'redis://redis.stores:6379';
  if (name === 'SESAME_MONGO_URL') return 'mongodb://mongo.stores:27017/sesame';
  if (name === 'SESAME_SMTP_URL') return 'smtps://mailer:secret@smtp.example.com:465';
  if (name === 'SESAME_KEY_ENCRYPTION_KEY') return Buffer.alloc(32, 7).toString('base64url');
  if (name === 'SESAME_CLIENT_SECRET_KEYS') return `k1:${Buffer.alloc(32, 9).toString('base64url')}`;
  if (name.endsWith('_URL')) return 'https://sms.example.com/2010-04-01/Accounts/AC1/Messages.json';
  return 'k'.repeat(48);
}

/**
 * The environment a Deployment's container gets: its ConfigMap, then its own env (secrets as placeholders,
 * $(NAME) references expanded).
 */
function containerEnv(docs: Manifest[], deployment: Manifest): Record<string, string> {
  const container = deployment.spec.template.spec.containers[0];
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    const map = ofKind(docs, 'ConfigMap').find((c: Manifest) => c.metadata.name === from.configMapRef?.name);
    assert.ok(map, `ConfigMap ${from.configMapRef?.name} is rendered`);
    Object.assign(env, map.data);
  }
  for (const e of container.env ?? []) {
    // As the kubelet does: $(NAME) of a variable declared before (the Redis password in a built URL) is replaced.
    if (e.value !== undefined)
      env[e.name] = String(e.value).replace(/\$\(([A-Z0-9_]+)\)/g, (ref, name) => env[name] ?? ref);
    else if (e.valueFrom?.secretKeyRef) env[e.name] = secretValue(e.name);
    else if (e.valueFrom?.fieldRef) env[e.name] = 'pod-0';
  }
  return env;
}

describe('the chart gives each service the environment it needs', () => {
  for (const envName of environments) {
    it(`${envName}: every service's config loads from its Deployment's environment, and auth can send mail and SMS`, () => {
      const docs = render(envName);
      const deployments = ofKind(docs, 'Deployment');
      assert.deepEqual(deployments.map(serviceOf).sort(), Object.keys(loaders).sort());
      for (const deployment of deployments) {
        const name = serviceOf(deployment);
        const env = containerEnv(docs, deployment);
        assert.doesNotThrow(() => loaders[name]!(env), `${envName} ${name}`);
        if (name === 'auth') {
          const config = loadAuthConfig(env);
          const logger = createLogger({ service: 'auth', level: 'silent' });
          assert.equal(createMailSender(config, logger).constructor.name, 'SmtpMailSender');
          assert.equal(createSmsSender(config, logger).constructor.name, 'HttpSmsSender');
        }
      }
    });
  }
});
