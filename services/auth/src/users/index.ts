import type { EmbeddedStore } from '@sesame/embedded-store';
import type { KeyValueStore } from '@sesame/kv';
import type { Connection } from '@sesame/mongo';
import { memoryUserStore } from './users.memory';
import { mongoUserStore } from './users.mongo';
import type { UserStore } from './users.repository';
import { sqliteUserStore } from './users.sqlite';

export type { AppMembership, DeviceAccess, User } from './model';
export type { UserStore } from './users.repository';
export { memoryUserStore } from './users.memory';

/**
 * The Mongo user store (its membership writes locked in `kv`) when a connection is configured, else the one on
 * the embedded engine when the launcher gives one, else the in-memory one (`SESAME_STORES=memory`, tests).
 */
export function createUserStore(
  mongo: Connection | undefined,
  kv: KeyValueStore,
  embedded?: EmbeddedStore,
): UserStore {
  if (mongo) return mongoUserStore(mongo, kv);
  return embedded ? sqliteUserStore(embedded) : memoryUserStore();
}
