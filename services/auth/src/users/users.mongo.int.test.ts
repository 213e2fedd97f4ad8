import { randomUUID } from 'node:crypto';
import { afterAll } from '@jest/globals';
import { RedisKeyValueStore } from '@sesame/kv';
import { contractMongo } from '@sesame/mongo/testing';
import { realServers } from '@sesame/testing';
import { userStoreContract } from './users.contract';
import { mongoUserStore } from './users.mongo';

let kv: RedisKeyValueStore | undefined;
afterAll(async () => {
  await kv?.close();
});

userStoreContract(
  'mongo',
  contractMongo('auth-user-store-contract', (conn) => {
    kv = RedisKeyValueStore.connect(realServers().redisUrl, `sesame:users-contract-${randomUUID()}:`);
    return mongoUserStore(conn, kv);
  }),
);
