import { randomUUID } from 'node:crypto';
import { afterAll } from '@jest/globals';
import { RedisKeyValueStore } from '@sesame/kv';
import { type Connection, connectMongo, syncIndexes } from '@sesame/mongo';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { userStoreContract } from './users.contract';
import { mongoUserStore } from './users.mongo';

let conn: Connection | undefined;
let kv: RedisKeyValueStore | undefined;
afterAll(async () => {
  await conn?.dropDatabase();
  await conn?.close();
  await kv?.close();
});

userStoreContract('mongo', async () => {
  conn = await connectMongo(isolatedMongoUrl(realServers().mongoUrl, 'auth-user-store-contract'), {
    appName: 'auth-user-store-contract',
  });
  kv = RedisKeyValueStore.connect(realServers().redisUrl, `sesame:users-contract-${randomUUID()}:`);
  const store = mongoUserStore(conn, kv);
  await syncIndexes(conn);
  return store;
});
