import type { Passkey } from './model';
import { DuplicatePasskeyError, type PasskeyRepository } from './passkeys.repository';

const copy = <T>(v: T): T => structuredClone(v);
const dropUndefined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** Passkeys in process memory (the embedded default and tests). */
export function memoryPasskeyStore(): PasskeyRepository {
  const rows = new Map<string, Passkey>();
  return {
    async create(passkey) {
      if (rows.has(passkey.credentialId)) throw new DuplicatePasskeyError();
      rows.set(passkey.credentialId, copy(dropUndefined(passkey)));
    },
    async get(credentialId) {
      const row = rows.get(credentialId);
      return row && copy(row);
    },
    async listForUser(userId) {
      return [...rows.values()]
        .filter((p) => p.userId === userId)
        .sort((a, b) => a.createdAt - b.createdAt)
        .map(copy);
    },
    async recordUse(credentialId, use) {
      const row = rows.get(credentialId);
      if (!row) return false;
      rows.set(credentialId, { ...row, counter: use.counter, backedUp: use.backedUp, lastUsedAt: use.at });
      return true;
    },
    async markSuspected(credentialId) {
      const row = rows.get(credentialId);
      if (!row) return false;
      rows.set(credentialId, { ...row, status: 'suspected' });
      return true;
    },
    async remove(credentialId) {
      return rows.delete(credentialId);
    },
  };
}
