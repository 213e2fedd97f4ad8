import { afterAll } from '@jest/globals';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { type Connection, connectMongo, syncIndexes } from '../index';

/**
 * The factory a repository contract suite runs against real Mongo: each call connects to the database
 * `name` of its own on the real server, opens the repositories on it and builds their indexes. Every
 * connection it made is dropped and closed after the test file.
 */
export function contractMongo<T>(name: string, open: (conn: Connection) => T): () => Promise<T> {
  const connections: Connection[] = [];
  afterAll(async () => {
    for (const conn of connections) {
      await conn.dropDatabase();
      await conn.close();
    }
  });
  return async () => {
    const conn = await connectMongo(isolatedMongoUrl(realServers().mongoUrl, name), { appName: name });
    connections.push(conn);
    const opened = open(conn);
    await syncIndexes(conn);
    return opened;
  };
}
