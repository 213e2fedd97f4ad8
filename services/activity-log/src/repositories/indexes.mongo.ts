import type { Logger } from '@sesame/platform';
import type { Collection, Schema } from 'mongoose';

/**
 * Creates each index the model's schema declares, one by one, so a server that refuses one (FerretDB 1.x has
 * no TTL indexes) still gets the others. Returns the names of the indexes the server refused.
 */
export async function ensureIndexes(
  schema: Schema,
  collection: Collection,
  logger: Logger,
): Promise<string[]> {
  const refused: string[] = [];
  for (const [fields, options] of schema.indexes()) {
    try {
      await collection.createIndex(fields as Record<string, 1 | -1>, options as Record<string, unknown>);
    } catch (err) {
      const name = Object.keys(fields).join('_');
      refused.push(name);
      // The server's answer is the whole story (a stack of driver frames says nothing more).
      const { message, codeName } = err as { message?: string; codeName?: string };
      logger.warn(
        { collection: collection.name, index: name, reason: message ?? String(err), codeName },
        'the Mongo server refused an index',
      );
    }
  }
  return refused;
}

/**
 * Only a TTL index may be missing (the service then purges expired records itself); without any other index
 * the data is wrong (the unique one keeps one record per flow) or the queries scan: refuse to start.
 */
export function requireIndexes(collection: string, refused: string[]): void {
  const missing = refused.filter((name) => name !== 'expireAt');
  if (missing.length)
    throw new Error(
      `the Mongo server refused the ${collection} index ${missing.join(', index ')}; refusing to start without it`,
    );
}

/**
 * Builds the schema's indexes on the model's collection (ensureIndexes) and refuses to start when one other
 * than the TTL index is missing (requireIndexes); returns the refused ones.
 */
export async function buildIndexes(
  schema: Schema,
  collection: Collection,
  logger: Logger,
): Promise<string[]> {
  const refused = await ensureIndexes(schema, collection, logger);
  requireIndexes(collection.name, refused);
  return refused;
}

/** Mongo duplicate-key error code: a unique index said no. */
export const DUPLICATE_KEY = 11000;

/** Indexes of the operations of an unordered bulk write that failed on a duplicate key; rethrows anything else. */
export function duplicateKeyFailures(err: unknown): number[] {
  const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
  const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as {
    index: number;
    code: number;
  }[];
  if (!list.length || list.some((e) => e.code !== DUPLICATE_KEY)) throw err;
  return list.map((e) => e.index);
}
