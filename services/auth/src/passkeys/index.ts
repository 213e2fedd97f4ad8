import type { Connection } from '@sesame/mongo';
import { memoryPasskeyStore } from './passkeys.memory';
import { mongoPasskeyStore } from './passkeys.mongo';
import type { PasskeyRepository } from './passkeys.repository';

export type { Passkey } from './model';
export type { PasskeyRepository } from './passkeys.repository';
export { memoryPasskeyStore } from './passkeys.memory';
export { PasskeyCeremonies, PasskeyError, type WebAuthnSettings } from './ceremonies';

/** The Mongo passkey store when a connection is configured, else the in-memory one. */
export function createPasskeyStore(mongo: Connection | undefined): PasskeyRepository {
  return mongo ? mongoPasskeyStore(mongo) : memoryPasskeyStore();
}
