import { randomUUID } from 'node:crypto';
import { afterAll } from '@jest/globals';
import { type Connection, connectMongo } from '@sesame/mongo';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { keyRepositoryContract } from './key.repository.contract';
import { MongoKeyRepository } from './key.repository.mongo';

const { mongoUrl } = realServers();
const connections: Connection[] = [];
afterAll(async () => {
  for (const conn of connections) {
    await conn.dropDatabase();
    await conn.close();
  }
});

// A database per test: each contract test starts from an empty key set.
keyRepositoryContract('mongo', async () => {
  const conn = await connectMongo(isolatedMongoUrl(mongoUrl, `jwks-repo-${randomUUID().slice(0, 8)}`), {
    appName: 'jwks-repo-test',
  });
  connections.push(conn);
  return MongoKeyRepository.open(conn);
});
