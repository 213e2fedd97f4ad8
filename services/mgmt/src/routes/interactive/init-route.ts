import { GrpcStatus, MgmtError, isGrpcStatus } from '@sesame/platform';
import express, { Router } from 'express';
import type { ApplicationRepository } from '../../directory/directory.repository';
import { asyncRoute } from '../../http/async-route';
import { mgmtErrors, noStore } from '../../http/mgmt-errors';
import { parse } from '../../http/validate';
import { type GrantsPeer, type UsersPeer, peerUnavailable } from '../../peers';
import type { ClientSecretVault } from '../../secrets/client-secret-vault';
import { interactiveInitBody } from './init-body';
import { type InteractivePrincipal, interactiveAuth, unauthorized } from './interactive-auth';

export const INTERACTIVE_INIT_PATH = '/api/v1/interactive/init';

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
}): Router {
  return Router().post(
    INTERACTIVE_INIT_PATH,
    noStore,
    interactiveAuth(deps),
    express.json({ limit: '16kb' }),
    asyncRoute(async (req, res) => {
      const { userId, app } = res.locals.interactive as InteractivePrincipal;
      const body = parse(interactiveInitBody, req.body);
      if (!app.redirectUris.includes(body.redirect_uri)) {
        throw new MgmtError(400, 'invalid_request', 'redirect_uri is not registered for this application', {
          redirect_uri: 'is not registered for this application',
        });
      }
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
