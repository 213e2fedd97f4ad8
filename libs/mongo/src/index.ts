import mongoose, { type Connection } from 'mongoose';

export type { Connection } from 'mongoose';

/**
 * Opens a dedicated mongoose connection (never the global default, so two services can share a process).
 * Code is written to the MongoDB API; tests run it against a MongoDB-wire server (FerretDB), production
 * against MongoDB. autoIndex builds the indexes each model declares.
 */
export async function connectMongo(url: string, opts: { appName: string }): Promise<Connection> {
  const conn = mongoose.createConnection(url, {
    appName: opts.appName,
    serverSelectionTimeoutMS: 5_000,
    autoIndex: true,
    maxPoolSize: 20,
  });
  await conn.asPromise();
  return conn;
}

/** Readiness check: the server answers a ping. */
export async function pingMongo(conn: Connection): Promise<void> {
  const db = conn.db;
  if (!db) throw new Error('mongo not connected');
  await db.admin().command({ ping: 1 });
}

/** Creates the declared indexes of every model on this connection (run at start, idempotent). */
export async function syncIndexes(conn: Connection): Promise<void> {
  for (const model of Object.values(conn.models)) await model.createIndexes();
}
export { type IndexKeys, type QueryShape, servesByEsr } from './esr';
