import { type AsyncServer, type Clock, systemClock } from '@sesame/platform';
import type { users } from '@sesame/proto';
import type { UserStore } from '../users';
import { blockDevice } from './block-device';
import { lookupUser } from './lookup-user';
import { removeUser } from './remove-user';

/**
 * The `Users` gRPC contract over a user store (service.ts adds the methods that need more than the store,
 * and support's, grpc/support-users.ts, which read passkeys too).
 */
export function usersGrpc(
  store: UserStore,
  clock: Clock = systemClock,
): Omit<
  AsyncServer<users.UsersServiceServer>,
  | 'createActivationLink'
  | 'createInteractiveFlow'
  | 'findUsers'
  | 'getUserDetail'
  | 'listUserSessions'
  | 'signOutEverywhere'
  | 'setUserDisabled'
  | 'listUsers'
  | 'removePasskey'
  | 'removePhoneNumber'
> {
  return {
    removeUser: removeUser(store.memberships),
    lookupUser: lookupUser(store),
    blockDevice: blockDevice(store, clock),
  };
}
