import { afterAll } from '@jest/globals';
import { type Connection, connectMongo, syncIndexes } from '@sesame/mongo';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { userStoreContract } from './users.contract';
import { mongoUserStore } from './users.mongo';

let conn: Connection | undefined;
afterAll(async () => {
  await conn?.dropDatabase();
  await conn?.close();
});

userStoreContract('mongo', async () => {
  conn = await connectMongo(isolatedMongoUrl(realServers().mongoUrl, 'auth-user-store-contract'), {
    appName: 'auth-user-store-contract',
  });
  const store = mongoUserStore(conn);
  await syncIndexes(conn);
  return store;
});
