import { randomUUID } from 'node:crypto';
import { RedisKeyValueStore } from '@sesame/kv';
import { realServers } from '@sesame/testing';
import { sessionsBySidContract } from './sessions-by-sid.contract';

sessionsBySidContract('redis', () =>
  RedisKeyValueStore.connect(realServers().redisUrl, `sesame:auth-sessions-${randomUUID()}:`),
);
