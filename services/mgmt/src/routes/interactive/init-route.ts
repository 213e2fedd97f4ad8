import type { KeyValueStore } from '@sesame/kv';
import { GrpcStatus, INTERACTIVE_INIT_PATH, MgmtError, isGrpcStatus } from '@sesame/platform';
import { users as usersProto } from '@sesame/proto';
import express, { Router } from 'express';
import type { ApplicationRepository } from '../../directory/directory.repository';
import { asyncRoute } from '../../http/async-route';
import { mgmtErrors, noStore } from '../../http/mgmt-errors';
import { parse } from '../../http/validate';
import { type GrantsPeer, type UsersPeer, peerUnavailable } from '../../peers';
import type { ClientSecretVault } from '../../secrets/client-secret-vault';
import { interactiveInitBody } from './init-body';
import { type InteractivePrincipal, interactiveAuth, unauthorized } from './interactive-auth';

export { INTERACTIVE_INIT_PATH };

/**
 * The token's user must still belong to the token's app: a user removed from it (remove user, spec 4.8, of
 * the app or the tenant) keeps a live access token until it expires, and may not mint enrollment URLs with it.
 */
async function assertStillMember(users: UsersPeer, app: { tenantId: string; appId: string }, userId: string) {
  await users
    .lookupUser({
      tenantId: app.tenantId,
      appId: app.appId,
      identifierType: usersProto.UserIdentifierType.USER_IDENTIFIER_TYPE_USER_ID,
      identifier: userId,
    })
    .catch((err: unknown) => {
      if (isGrpcStatus(err, GrpcStatus.NOT_FOUND)) {
        throw unauthorized(
          'invalid_token',
          'the user of this access token is no longer a member of this application',
        );
      }
      throw peerUnavailable(err, 'the users service');
    });
}

/** The body as JSON, once the caller is known (a malformed one is a 400 like every body rule). */
function jsonOf(raw: unknown): unknown {
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new MgmtError(400, 'invalid_request', 'the request body is not valid JSON', {
      '(body)': 'must be a JSON object',
    });
  }
}

/**
 * POST {api_url}/api/v1/interactive/init (spec 4.9): the caller is checked first (interactive-auth.ts, every
 * refusal a 401), then the body (every rule a 400), then Users.CreateInteractiveFlow on auth makes the
 * single-use URL. Answers exactly `{"status_code": "200", "data": {"url": "…"}}`.
 */
export function interactiveInitRoute(deps: {
  grants: GrantsPeer;
  users: UsersPeer;
  applications: ApplicationRepository;
  vault: ClientSecretVault;
  clock: { now(): number };
  nonces: KeyValueStore;
}): Router {
  return Router().post(
    INTERACTIVE_INIT_PATH,
    noStore,
    // The raw bytes first: the signature covers them (interactive-auth.ts), and the caller is checked before
    // the body is read as JSON.
    express.raw({ type: () => true, limit: '16kb' }),
    interactiveAuth(deps),
    asyncRoute(async (req, res) => {
      const { userId, app } = res.locals.interactive as InteractivePrincipal;
      const body = parse(interactiveInitBody, jsonOf(req.body));
      if (!app.redirectUris.includes(body.redirect_uri)) {
        throw new MgmtError(400, 'invalid_request', 'redirect_uri is not registered for this application', {
          redirect_uri: 'is not registered for this application',
        });
      }
      await assertStillMember(deps.users, app, userId);
      const flow = await deps.users
        .createInteractiveFlow({
          tenantId: app.tenantId,
          appId: app.appId,
          clientId: app.clientId,
          userId,
          purpose: body.purpose,
          redirectUri: body.redirect_uri,
          state: body.state ?? '',
        })
        .catch((err: unknown) => {
          if (isGrpcStatus(err, GrpcStatus.NOT_FOUND)) {
            throw unauthorized('invalid_token', 'the user of this access token no longer exists');
          }
          throw peerUnavailable(err, 'the users service');
        });
      res.json({ status_code: '200', data: { url: flow.url } });
    }),
    mgmtErrors,
  );
}
