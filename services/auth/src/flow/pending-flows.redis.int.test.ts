import { randomUUID } from 'node:crypto';
import { RedisKeyValueStore } from '@sesame/kv';
import { realServers } from '@sesame/testing';
import { pendingFlowsContract } from './pending-flows.contract';

pendingFlowsContract('Redis', () =>
  RedisKeyValueStore.connect(realServers().redisUrl, `sesame:auth-pending-${randomUUID()}:`),
);
