import type { EmbeddedStore } from '@sesame/embedded-store';
import type { Connection } from '@sesame/mongo';
import { memoryAdmins } from './memory';
import { mongoAdmins } from './mongo';
import type { AdminsRepositories } from './repository';
import { sqliteAdmins } from './sqlite';

export type { AdminsRepositories } from './repository';
export { memoryAdmins } from './memory';

/**
 * The Mongo administrators when a connection is configured, else those in the embedded default's durable engine
 * when there is one, else the in-memory ones (SESAME_STORES=memory, tests).
 */
export function createAdmins(mongo: Connection | undefined, embedded?: EmbeddedStore): AdminsRepositories {
  return mongo ? mongoAdmins(mongo) : embedded ? sqliteAdmins(embedded) : memoryAdmins();
}
