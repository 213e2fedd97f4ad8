import { oauthErrors } from '@sesame/oauth';
import type { grants } from '@sesame/proto';
import type { AuthPeers } from '../peers';
import type { AppMembership } from '../users/model';
import type { UserStore } from '../users/users.repository';

/** RFC 6750 §3.1: 401 with a Bearer challenge; no error code when the request carried no token at all. */
export const invalidToken = oauthErrors.invalidToken;

/** The login an access token came from, and the membership it belongs to. */
export interface TokenLogin {
  tenantId: string;
  appId: string;
  userId: string;
  login: grants.LoginRef;
  membership: AppMembership;
}

/** RFC 6750 §2.1: `Bearer <b64token>` (scheme case-insensitive). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

export function readBearer(header: string | undefined): string {
  if (!header) throw invalidToken('an access token is required: Authorization: Bearer <access_token>', false);
  const match = BEARER.exec(header.trim());
  if (!match) throw invalidToken('the Authorization header must be: Bearer <access_token>');
  return match[1]!;
}

/**
 * The login a user's access token stands for (ARCHITECTURE §7, session feedback), checked in order: the token
 * is live (Grants.IntrospectAccessToken: unknown, expired and revoked tokens are inactive; token looks it up by
 * its hash, so no secret is compared here); it was issued to a person's sign-in (not client_credentials) and
 * names the login it came from; its application still exists with that tenant (Directory); and the user is a
 * member of that application, and was since before that login (a membership removed through DELETE users takes
 * its tokens' feedback with it, even once the user signs in again).
 */
export async function loginOfToken(
  deps: {
    peers: Pick<AuthPeers, 'introspectAccessToken' | 'getClient'>;
    users: Pick<UserStore, 'memberships'>;
  },
  accessToken: string,
): Promise<TokenLogin> {
  const info = await deps.peers.introspectAccessToken(accessToken);
  if (!info.active) throw invalidToken('the access token is unknown, expired or revoked');
  if (info.kind !== 'user' || !info.sub || !info.appId) {
    throw invalidToken(
      'the access token was not issued to a user sign-in (client_credentials tokens cannot confirm one)',
    );
  }
  if (!info.login?.flowId) throw invalidToken('the access token names no login to confirm');
  const client = await deps.peers.getClient(info.clientId);
  if (!client || client.tenantId !== info.tenantId || client.appId !== info.appId) {
    throw invalidToken('the application of the access token no longer exists');
  }
  const membership = await deps.users.memberships.get(info.tenantId, info.appId, info.sub);
  if (!membership) throw invalidToken('the user of the access token is not a member of its application');
  // A token from before DELETE users must not confirm the membership the user made by signing in again.
  if (info.login.loginAt < membership.firstLoginAt) {
    throw invalidToken('the login of the access token predates the membership (the user was removed since)');
  }
  return { tenantId: info.tenantId, appId: info.appId, userId: info.sub, login: info.login, membership };
}
