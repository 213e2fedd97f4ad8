import type { EmbeddedStore } from '@sesame/embedded-store';
import type { Connection } from '@sesame/mongo';
import { memoryPasskeyStore } from './passkeys.memory';
import { mongoPasskeyStore } from './passkeys.mongo';
import type { PasskeyRepository } from './passkeys.repository';
import { sqlitePasskeyStore } from './passkeys.sqlite';

export type { Passkey } from './model';
export type { PasskeyRepository } from './passkeys.repository';
export { memoryPasskeyStore } from './passkeys.memory';
export { PasskeyCeremonies, PasskeyError, type WebAuthnSettings } from './ceremonies';

/**
 * The Mongo passkey store when a connection is configured, else the one on the embedded engine when the launcher
 * gives one, else the in-memory one (`SESAME_STORES=memory`, tests).
 */
export function createPasskeyStore(
  mongo: Connection | undefined,
  embedded?: EmbeddedStore,
): PasskeyRepository {
  if (mongo) return mongoPasskeyStore(mongo);
  return embedded ? sqlitePasskeyStore(embedded) : memoryPasskeyStore();
}
