import { afterAll } from '@jest/globals';
import { type Connection, connectMongo, syncIndexes } from '@sesame/mongo';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { directoryContract } from './directory.contract';
import { mongoDirectory } from './directory.mongo';

let conn: Connection | undefined;
afterAll(async () => {
  await conn?.dropDatabase();
  await conn?.close();
});

directoryContract('mongo', async () => {
  conn = await connectMongo(isolatedMongoUrl(realServers().mongoUrl, 'mgmt-directory-contract'), {
    appName: 'mgmt-directory-contract',
  });
  const dir = mongoDirectory(conn);
  await syncIndexes(conn);
  return dir;
});
