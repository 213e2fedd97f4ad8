import express from 'express';
import { isAllowed } from '../admins/permissions';
import { createCredentials } from '../use-cases/credentials/create-credentials';
import { revokeCredentials } from '../use-cases/credentials/revoke-credentials';
import type { ConsoleDeps, SignedIn } from './context';
import { ConsoleError } from './errors';
import { allowedRoute, date, pageKit } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';

const P = `${CONSOLE_PATH}/credentials`;

/** The API credentials of the signed-in tenant as the page lists them (also after Machine to machine). */
export const credentialsListView = async (deps: ConsoleDeps, s: SignedIn) =>
  (await deps.dir.credentials.list(s.tenant.tenantId)).map((c) => ({
    credentialsId: c.credentialsId,
    created: date(c.createdAt),
    revoked: c.revokedAt !== undefined,
    confirmHref: `${P}/${encodeURIComponent(c.credentialsId)}/revoke`,
  }));

/**
 * API credentials: New API credentials (the Credentials ID and, once, the API secret), Revoke per row,
 * confirmed on its own page with Revoke credentials. Owners and Administrators; a new secret and a
 * revocation need a recent sign-in.
 */
export function credentialsPage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { show, emit, stepUp } = pageKit(deps, renderer);
  const listView = (s: SignedIn) => credentialsListView(deps, s);
  router.get(
    '/credentials',
    allowedRoute('credentials.read', async (_req, res, s) => {
      show(res, 'credentials', 'credentials', 'creds.title', {
        credentials: await listView(s),
        canWrite: isAllowed(s.account.role, 'credentials.write'),
        action: P,
      });
    }),
  );
  router.post(
    '/credentials',
    allowedRoute(
      'credentials.write',
      async (req, res, s) => {
        const created = await createCredentials(deps, s.tenant.tenantId, emit(req, res));
        show(
          res,
          'credentials',
          'credentials',
          'creds.title',
          {
            credentials: await listView(s),
            canWrite: true,
            action: P,
            created: { credentialsId: created.credentialsId, apiSecret: created.apiSecret },
          },
          201,
        );
      },
      stepUp('credentials.create'),
    ),
  );
  router.get(
    '/credentials/:credentialsId/revoke',
    allowedRoute('credentials.write', async (req, res, s) => {
      const found = await deps.dir.credentials.get(s.tenant.tenantId, req.params.credentialsId!);
      if (!found || found.revokedAt !== undefined) throw new ConsoleError(404, 'error.notFound');
      show(res, 'confirmRevoke', 'credentials', 'creds.confirmTitle', {
        credentialsId: found.credentialsId,
        action: `${P}/${encodeURIComponent(found.credentialsId)}/revoke`,
        back: P,
      });
    }),
  );
  router.post(
    '/credentials/:credentialsId/revoke',
    allowedRoute(
      'credentials.write',
      async (req, res, s) => {
        await revokeCredentials(deps, s.tenant.tenantId, req.params.credentialsId!, emit(req, res));
        res.redirect(303, P);
      },
      stepUp('credentials.revoke'),
    ),
  );
  return router;
}
