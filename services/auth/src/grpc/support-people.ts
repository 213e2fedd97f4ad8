import { GrpcError, GrpcStatus } from '@sesame/platform';
import type { users } from '@sesame/proto';
import type { PasskeyRepository } from '../passkeys/passkeys.repository';
import { type User, disabledAt } from '../users/model';
import type { UserPosition, UserStore } from '../users/users.repository';

const invalid = (message: string) => new GrpcError(GrpcStatus.INVALID_ARGUMENT, message);
const notFound = (what: string) => new GrpcError(GrpcStatus.NOT_FOUND, `${what} not found`);
const MAX_ID = 512;
export const MAX_LIST = 200;
/**
 * People read per page at most. Users are global and the list shows one tenant's: a page stops early (with a
 * cursor) rather than read the whole store for a tenant with few people among many.
 */
export const SCAN_BUDGET = 1000;

const required = (value: string, name: string) => {
  if (!value || value.length > MAX_ID) throw invalid(`${name} is required`);
  return value;
};

/** The cursor of the newest-first list: the last person read, as base64url JSON [createdAt, userId]. */
export const listCursor = {
  encode: (p: UserPosition) => Buffer.from(JSON.stringify([p.createdAt, p.userId])).toString('base64url'),
  decode(cursor: string): UserPosition {
    try {
      const [createdAt, userId] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
      if (Number.isSafeInteger(createdAt) && typeof userId === 'string' && userId.length <= MAX_ID)
        return { createdAt: createdAt as number, userId };
    } catch {
      // fall through: not this list's cursor
    }
    throw invalid('cursor is not a cursor of this list');
  },
};

/**
 * The tenant's members among `people`, with their last sign-in to an app of the tenant: one read of
 * memberships for the whole batch (findByUsersOrAlias; its alias branch is filtered out here).
 */
export async function membersOf(store: UserStore, tenantId: string, people: User[]) {
  if (!people.length) return new Map<string, number>();
  const ids = new Set(people.map((u) => u.userId));
  const memberships = await store.memberships.findByUsersOrAlias(tenantId, [...ids], '');
  const last = new Map<string, number>();
  for (const m of memberships) {
    if (ids.has(m.userId)) last.set(m.userId, Math.max(last.get(m.userId) ?? 0, m.lastLoginAt));
  }
  return last;
}

/**
 * ListUsers: the tenant's people newest first, `limit` per page, in batches of the global newest-first list
 * (each batch one read of people and one of memberships). Reads at most SCAN_BUDGET people per page: a page
 * can be short (even empty) with a next cursor when the tenant's people are sparse.
 */
export function listUsers(store: UserStore, passkeys: PasskeyRepository) {
  return async (request: users.ListUsersRequest): Promise<users.ListUsersResponse> => {
    const tenantId = required(request.tenantId, 'tenant_id');
    if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_LIST)
      throw invalid(`limit must be 1..${MAX_LIST}`);
    let position = request.cursor ? listCursor.decode(request.cursor) : undefined;
    const found: { user: User; lastSignIn: number }[] = [];
    let read = 0;
    let atEnd = false;
    while (!atEnd && found.length < request.limit && read < SCAN_BUDGET) {
      const want = Math.min(Math.max(request.limit - found.length, 20) * 2, SCAN_BUDGET - read);
      const batch = await store.users.listNewest(want, position);
      read += batch.length;
      const members = await membersOf(store, tenantId, batch);
      let i = 0;
      for (; i < batch.length && found.length < request.limit; i++) {
        const user = batch[i]!;
        position = { createdAt: user.createdAt, userId: user.userId };
        const lastSignIn = members.get(user.userId);
        if (lastSignIn !== undefined) found.push({ user, lastSignIn });
      }
      // The whole of a short batch read: nobody older is left.
      atEnd = i === batch.length && batch.length < want;
    }
    const keys = await Promise.all(found.map(({ user }) => passkeys.listForUser(user.userId)));
    const more = !atEnd && position !== undefined;
    return {
      users: found.map(({ user, lastSignIn }, i) => ({
        userId: user.userId,
        email: user.email ?? '',
        createdAt: user.createdAt,
        lastSignIn,
        disabledAt: disabledAt(user, tenantId) ?? 0,
        passkeys: keys[i]!.length,
      })),
      nextCursor: more ? listCursor.encode(position!) : '',
    };
  };
}

/** NOT_FOUND unless the person has a membership in the tenant (another tenant's person is not found). */
async function requireMember(store: UserStore, tenantId: string, userId: string) {
  const memberships = await store.memberships.listForUser(tenantId, userId);
  if (memberships.length === 0) throw notFound('user');
}

/** RemovePasskey: deletes one of the person's passkeys; NOT_FOUND for a passkey that is not theirs. */
export function removePasskey(store: UserStore, passkeys: PasskeyRepository) {
  return async (request: users.RemovePasskeyRequest): Promise<users.RemovePasskeyResponse> => {
    const tenantId = required(request.tenantId, 'tenant_id');
    const userId = required(request.userId, 'user_id');
    const credentialId = required(request.credentialId, 'credential_id');
    await requireMember(store, tenantId, userId);
    const passkey = await passkeys.get(credentialId);
    if (!passkey || passkey.userId !== userId) throw notFound('passkey');
    await passkeys.remove(credentialId);
    return {};
  };
}

/** RemovePhoneNumber: forgets the person's phone number; `removed` false when they had none. */
export function removePhoneNumber(store: UserStore) {
  return async (request: users.RemovePhoneNumberRequest): Promise<users.RemovePhoneNumberResponse> => {
    const tenantId = required(request.tenantId, 'tenant_id');
    const userId = required(request.userId, 'user_id');
    await requireMember(store, tenantId, userId);
    const user = await store.users.get(userId);
    if (!user) throw notFound('user');
    if (!user.phoneNumber) return { removed: false };
    return { removed: await store.users.removePhone(userId) };
  };
}

/** A phone number as support sees it: only its last two digits ("•••• •• 42"). */
export function maskPhone(phone: string | undefined): string {
  const digits = (phone ?? '').replace(/\D/g, '');
  return digits.length < 2 ? '' : `•••• •• ${digits.slice(-2)}`;
}
