// The chart's HA store values: SESAME_REDIS_URL in each of its forms (from a Secret, or built from Sentinel or
// Cluster addresses with the password from a Secret), the Kafka bootstrap list and the topic replication.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import { parseRedisUrl } from '../libs/platform/src/redis-url';
import { type Manifest, chart, ofKind, render, run, tools } from './render';

const envMap = (docs: Manifest[]) =>
  ofKind(docs, 'ConfigMap').find((m) => m.metadata.name.endsWith('-env')).data;

/** Each Deployment's container env entries, by service. */
const containerEnvs = (docs: Manifest[]): Manifest[][] =>
  ofKind(docs, 'Deployment').map((d) => d.spec.template.spec.containers[0].env ?? []);

function redisEnv(docs: Manifest[]): Manifest[] {
  const envs = containerEnvs(docs);
  const first = envs[0]!;
  // Every service gets the same Redis variables.
  for (const env of envs)
    assert.deepEqual(
      env.filter((e: Manifest) => e.name.startsWith('SESAME_REDIS')),
      first.filter((e: Manifest) => e.name.startsWith('SESAME_REDIS')),
    );
  return first.filter((e: Manifest) => e.name.startsWith('SESAME_REDIS'));
}

describe('HA store values', () => {
  it('sandbox: a Sentinel URL built from three sentinels and the master name, the password from its Secret', () => {
    const env = redisEnv(render('sandbox'));
    assert.deepEqual(env, [
      {
        name: 'SESAME_REDIS_PASSWORD',
        valueFrom: { secretKeyRef: { name: 'sesame-stores', key: 'redis-password' } },
      },
      {
        name: 'SESAME_REDIS_URL',
        value:
          'redis+sentinel://:$(SESAME_REDIS_PASSWORD)@redis-sentinel-0.redis.stores-sandbox:26379,redis-sentinel-1.redis.stores-sandbox:26379,redis-sentinel-2.redis.stores-sandbox:26379/sesame',
      },
    ]);
    // What the kubelet makes of it parses as the Sentinel form, with the password in its place.
    const built: string = redisEnv(render('sandbox'))[1].value;
    const url = built.replace('$(SESAME_REDIS_PASSWORD)', 'pa%40ss');
    const parsed = parseRedisUrl(url);
    assert.ok(parsed.topology === 'sentinel');
    assert.equal(parsed.masterName, 'sesame');
    assert.equal(parsed.password, 'pa@ss');
    assert.equal(parsed.sentinels.length, 3);
  });

  it('production: Sentinel over TLS; production-eu: a Cluster over TLS; production-us: the whole URL from its Secret', () => {
    const prod = redisEnv(render('production'));
    assert.match(prod[1].value, /^redis\+sentinel:\/\/:\$\(SESAME_REDIS_PASSWORD\)@[^@]+\/sesame\?tls=true$/);
    const eu = redisEnv(render('production-eu'));
    assert.deepEqual(eu[0], {
      name: 'SESAME_REDIS_PASSWORD',
      valueFrom: { secretKeyRef: { name: 'sesame-stores-eu', key: 'redis-password' } },
    });
    assert.equal(
      eu[1].value,
      'redis+cluster://:$(SESAME_REDIS_PASSWORD)@redis-cluster-0.redis.prod-eu:6379,redis-cluster-1.redis.prod-eu:6379,redis-cluster-2.redis.prod-eu:6379?tls=true',
    );
    const parsed = parseRedisUrl(eu[1].value.replace('$(SESAME_REDIS_PASSWORD)', 'secret'));
    assert.ok(parsed.topology === 'cluster');
    assert.equal(parsed.nodes.length, 3);
    assert.equal(parsed.tls, true);
    assert.deepEqual(redisEnv(render('production-us')), [
      {
        name: 'SESAME_REDIS_URL',
        valueFrom: { secretKeyRef: { name: 'sesame-stores-us', key: 'redis-url' } },
      },
    ]);
  });

  it('Kafka: three brokers in every region; production pins replication 3 and min.insync.replicas 2, sandbox follows the broker count', () => {
    for (const region of ['sandbox', 'production', 'production-eu', 'production-us']) {
      assert.equal(envMap(render(region)).SESAME_KAFKA_BROKERS.split(',').length, 3, region);
    }
    for (const region of ['production', 'production-eu']) {
      const cm = envMap(render(region));
      assert.deepEqual(
        [cm.SESAME_KAFKA_REPLICATION_FACTOR, cm.SESAME_KAFKA_MIN_INSYNC_REPLICAS],
        ['3', '2'],
        region,
      );
    }
    const sandbox = envMap(render('sandbox'));
    assert.equal(sandbox.SESAME_KAFKA_REPLICATION_FACTOR, undefined);
    assert.equal(sandbox.SESAME_KAFKA_MIN_INSYNC_REPLICAS, undefined);
  });

  const template = (...set: string[]) =>
    run(tools.helm, [
      'template',
      's',
      chart,
      '-f',
      join(chart, 'values-sandbox.yaml'),
      ...set.flatMap((s) => ['--set', s]),
    ]);

  it('refuses a Sentinel without its master name or sentinels, a Cluster without nodes, and an unknown mode, naming the value', () => {
    const noMaster = template('stores.redis.masterName=');
    assert.notEqual(noMaster.status, 0);
    assert.match(noMaster.stderr, /stores\.redis\.masterName: .* required for mode sentinel/);
    const noSentinels = template('stores.redis.sentinels=null');
    assert.notEqual(noSentinels.status, 0);
    assert.match(noSentinels.stderr, /stores\.redis\.sentinels: list the sentinels/);
    const noNodes = template('stores.redis.mode=cluster');
    assert.notEqual(noNodes.status, 0);
    assert.match(noNodes.stderr, /stores\.redis\.nodes: list the cluster nodes/);
    const unknown = template('stores.redis.mode=replicated');
    assert.notEqual(unknown.status, 0);
    assert.match(unknown.stderr, /stores\.redis\.mode/);
    const badAddress = template('stores.redis.sentinels[0]=no-port');
    assert.notEqual(badAddress.status, 0);
    assert.match(badAddress.stderr, /stores\.redis\.sentinels\.0/);
  });

  it('a Cluster without a password renders redis+cluster://host:port,… and no password variable', () => {
    const res = template(
      'stores.redis.mode=cluster',
      'stores.redis.nodes={c-0:6379,c-1:6379}',
      'stores.redis.passwordSecret=null',
    );
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /value: "redis\+cluster:\/\/c-0:6379,c-1:6379"/);
    assert.doesNotMatch(res.stdout, /SESAME_REDIS_PASSWORD/);
  });
});
