import type { Connection } from '@sesame/mongo';
import { memoryAdmins } from './memory';
import { mongoAdmins } from './mongo';
import type { AdminsRepositories } from './repository';

export type { AdminsRepositories } from './repository';
export { memoryAdmins } from './memory';

/** The Mongo administrators when a connection is configured, else the in-memory ones. */
export function createAdmins(mongo: Connection | undefined): AdminsRepositories {
  return mongo ? mongoAdmins(mongo) : memoryAdmins();
}
