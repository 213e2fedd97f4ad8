import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { ConfigError, baseConfigSchema, loadConfig } from './config';
import { parseRedisUrl } from './redis-url';

describe('parseRedisUrl', () => {
  it('passes a plain redis:// or rediss:// URL through as one server', () => {
    assert.deepEqual(parseRedisUrl('redis://:pw@r:6379/2'), {
      topology: 'standalone',
      url: 'redis://:pw@r:6379/2',
    });
    assert.deepEqual(parseRedisUrl('rediss://r:6380'), { topology: 'standalone', url: 'rediss://r:6380' });
  });

  it('reads the Sentinel form: sentinels, master name, database, credentials', () => {
    assert.deepEqual(
      parseRedisUrl(
        'redis+sentinel://app:p%40ss@s1:26379,s2:26380,[::1]:26381/mymaster?db=3&sentinelPassword=sp',
      ),
      {
        topology: 'sentinel',
        sentinels: [
          { host: 's1', port: 26379 },
          { host: 's2', port: 26380 },
          { host: '::1', port: 26381 },
        ],
        masterName: 'mymaster',
        db: 3,
        username: 'app',
        password: 'p@ss',
        sentinelPassword: 'sp',
        tls: false,
      },
    );
    assert.deepEqual(parseRedisUrl('redis+sentinel://:pw@s1:26379/m'), {
      topology: 'sentinel',
      sentinels: [{ host: 's1', port: 26379 }],
      masterName: 'm',
      db: 0,
      username: undefined,
      password: 'pw',
      tls: false,
    });
  });

  it('reads the Cluster form: seed nodes and credentials', () => {
    assert.deepEqual(parseRedisUrl('redis+cluster://c1:7000,c2:7001,c3:7002?tls=true'), {
      topology: 'cluster',
      nodes: [
        { host: 'c1', port: 7000 },
        { host: 'c2', port: 7001 },
        { host: 'c3', port: 7002 },
      ],
      username: undefined,
      password: undefined,
      tls: true,
    });
  });

  it('names what is wrong, without echoing the password', () => {
    const problem = (url: string) => {
      try {
        parseRedisUrl(url);
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    assert.equal(
      problem('http://r:6379'),
      'expected redis://, rediss://, redis+sentinel:// or redis+cluster://',
    );
    assert.equal(
      problem('redis+sentinel://:secret@s1:26379'),
      'path: the master name goes in the path: /<master-name>',
    );
    assert.equal(problem('redis+sentinel://s1/m'), 'hosts: each node is host:port');
    assert.equal(problem('redis+sentinel://s1:26379/m?db=16'), 'db: Number must be less than or equal to 15');
    assert.equal(problem('redis+sentinel://s1:26379/m?dbx=1'), "query: Unrecognized key(s) in object: 'dbx'");
    assert.equal(
      problem('redis+cluster://:secret@c1:7000/0'),
      'path: a cluster has no database or name: nothing after the hosts',
    );
    assert.equal(problem('redis+cluster://c1:70000'), 'hosts: port out of range in c1:70000');
  });

  it('is how the services read SESAME_REDIS_URL', () => {
    const url = 'redis+cluster://c1:7000,c2:7001';
    assert.equal(loadConfig(baseConfigSchema, { SESAME_REDIS_URL: url }).SESAME_REDIS_URL, url);
    assert.throws(
      () => loadConfig(baseConfigSchema, { SESAME_REDIS_URL: 'redis+sentinel://:secret@s1:26379' }),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.problems.join() === 'SESAME_REDIS_URL: path: the master name goes in the path: /<master-name>',
    );
  });
});
