import type { KeyValueStore } from '@sesame/kv';
import type { Connection } from '@sesame/mongo';
import { type AsyncServer, type Clock, systemClock } from '@sesame/platform';
import type { users } from '@sesame/proto';
import { blockDevice } from '../grpc/block-device';
import { lookupUser } from '../grpc/lookup-user';
import { removeUser } from '../grpc/remove-user';
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

/** The `Users` gRPC contract over a user store (service.ts adds the methods that need more than the store). */
export function usersGrpc(
  store: UserStore,
  clock: Clock = systemClock,
): Omit<AsyncServer<users.UsersServiceServer>, 'createActivationLink' | 'createInteractiveFlow'> {
  return {
    removeUser: removeUser(store.memberships),
    lookupUser: lookupUser(store),
    blockDevice: blockDevice(store, clock),
  };
}
