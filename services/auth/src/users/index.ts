import type { KeyValueStore } from '@sesame/kv';
import type { Connection } from '@sesame/mongo';
import { memoryUserStore } from './users.memory';
import { mongoUserStore } from './users.mongo';
import type { UserStore } from './users.repository';

export type { AppMembership, DeviceAccess, User } from './model';
export type { UserStore } from './users.repository';
export { memoryUserStore } from './users.memory';

/** The Mongo user store (its membership writes locked in `kv`) when a connection is configured, else the in-memory one. */
export function createUserStore(mongo: Connection | undefined, kv: KeyValueStore): UserStore {
  return mongo ? mongoUserStore(mongo, kv) : memoryUserStore();
}
