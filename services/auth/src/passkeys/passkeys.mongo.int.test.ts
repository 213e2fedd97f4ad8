import { afterAll } from '@jest/globals';
import { type Connection, connectMongo, syncIndexes } from '@sesame/mongo';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { passkeyStoreContract } from './passkeys.contract';
import { mongoPasskeyStore } from './passkeys.mongo';

let conn: Connection | undefined;
afterAll(async () => {
  await conn?.dropDatabase();
  await conn?.close();
});

passkeyStoreContract('mongo', async () => {
  conn = await connectMongo(isolatedMongoUrl(realServers().mongoUrl, 'auth-passkey-store-contract'), {
    appName: 'auth-passkey-store-contract',
  });
  const store = mongoPasskeyStore(conn);
  await syncIndexes(conn);
  return store;
});
