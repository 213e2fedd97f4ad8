import type { users } from '@sesame/proto';
import type { AppMembership } from '../users/model';

/** An app membership as the Users contract answers it (LookupUser, GetUserDetail). */
export function membershipMessage(m: AppMembership): users.AppMembership {
  return {
    appId: m.appId,
    alias: m.alias ?? '',
    acrValues: [...m.acrValues],
    confirmed: m.confirmed,
    firstLogin: m.firstLoginAt,
    lastLogin: m.lastLoginAt,
  };
}
