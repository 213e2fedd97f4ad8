import { afterAll } from '@jest/globals';
import { type Connection, connectMongo, syncIndexes } from '@sesame/mongo';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { adminsContract } from './contract';
import { mongoAdmins } from './mongo';

let conn: Connection | undefined;
afterAll(async () => {
  await conn?.dropDatabase();
  await conn?.close();
});

adminsContract('mongo', async () => {
  conn = await connectMongo(isolatedMongoUrl(realServers().mongoUrl, 'mgmt-admins-contract'), {
    appName: 'mgmt-admins-contract',
  });
  const admins = mongoAdmins(conn);
  await syncIndexes(conn);
  return admins;
});
