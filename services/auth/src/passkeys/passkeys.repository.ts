import type { Passkey } from './model';

/** Users' passkeys (global, like users and their devices). */
export interface PasskeyRepository {
  /** Rejects with DuplicatePasskeyError when the credential id exists. */
  create(passkey: Passkey): Promise<void>;
  get(credentialId: string): Promise<Passkey | undefined>;
  /** The user's passkeys, oldest first. */
  listForUser(userId: string): Promise<Passkey[]>;
  /** After an accepted assertion: the new counter, backup state and time of use; false when unknown. */
  recordUse(credentialId: string, use: { counter: number; backedUp: boolean; at: number }): Promise<boolean>;
  /** Marks the passkey as a suspected clone; false when unknown. */
  markSuspected(credentialId: string): Promise<boolean>;
  /** Deletes the passkey (support's Remove passkey): it signs nobody in any more; false when unknown. */
  remove(credentialId: string): Promise<boolean>;
}

export class DuplicatePasskeyError extends Error {
  constructor() {
    super('duplicate credential id');
    this.name = 'DuplicatePasskeyError';
  }
}
