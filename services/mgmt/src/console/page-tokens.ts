import express from 'express';
import { z } from 'zod';
import type { PersonalApiToken } from '../admins/model';
import { isAllowed } from '../admins/permissions';
import { ct } from '../i18n';
import {
  issuePersonalToken,
  revokePersonalToken,
  tokenName,
} from '../use-cases/administrators/personal-tokens';
import type { ConsoleDeps, SignedIn } from './context';
import { ConsoleError } from './errors';
import { formErrors, zodProblems } from './form-problems';
import { allowedRoute, date, pageKit, requireStepUp } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';

const P = `${CONSOLE_PATH}/tokens`;
const FORM = { name: { id: 'token-name', label: 'tokens.name' } };

const row = (t: PersonalApiToken) => ({
  email: t.email,
  name: t.name,
  revoked: t.revokedAt !== undefined,
  expires: date(t.expiresAt),
  revokeAction: `${P}/${encodeURIComponent(t.tokenId)}/revoke`,
});

/**
 * Personal API tokens: every role makes, lists and revokes its own (making one is a recent sign-in, the only
 * way a token is made: a token cannot make tokens); an Owner also sees every administrator's tokens of the
 * tenant and revokes any. Making and revoking publish admin events as the session.
 */
export function tokensPage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { show, emit, stepUp } = pageKit(deps, renderer);
  const view = async (s: SignedIn) => {
    const canSeeAll = isAllowed(s.account.role, 'tokens.manageAll');
    return {
      tokens: (await deps.admins.tokens.list(s.tenant.tenantId, s.session.email)).map(row),
      canSeeAll,
      allTokens: canSeeAll ? (await deps.admins.tokens.list(s.tenant.tenantId)).map(row) : [],
      newHref: `${P}?new`,
    };
  };
  router.get(
    '/tokens',
    allowedRoute('ownTokens.manage', async (req, res, s) => {
      show(res, 'tokens', 'tokens', 'tokens.title', {
        ...(await view(s)),
        showForm: req.query.new !== undefined,
        action: P,
      });
    }),
  );
  router.post(
    '/tokens',
    allowedRoute(
      'ownTokens.manage',
      async (req, res, s) => {
        const typed = String(req.body?.name ?? '');
        const parsed = z.object({ name: tokenName }).safeParse({ name: typed });
        if (!parsed.success) {
          const errors = formErrors(s.locale, FORM, zodProblems(parsed.error));
          const again = { ...(await view(s)), showForm: true, action: P, name: typed, ...errors };
          show(res, 'tokens', 'tokens', 'tokens.title', again, 400);
          return;
        }
        const { name } = parsed.data;
        const { token } = await issuePersonalToken(
          deps,
          s.tenant.tenantId,
          s.session.email,
          name,
          emit(req, res),
        );
        show(res, 'tokens', 'tokens', 'tokens.title', { ...(await view(s)), created: { token } }, 201);
      },
      stepUp('token.create'),
    ),
  );
  router.post(
    '/tokens/:tokenId/revoke',
    allowedRoute('ownTokens.manage', async (req, res, s) => {
      const tokenId = req.params.tokenId!;
      const all = isAllowed(s.account.role, 'tokens.manageAll');
      const found = (
        await deps.admins.tokens.list(s.tenant.tenantId, all ? undefined : s.session.email)
      ).find((t) => t.tokenId === tokenId && t.revokedAt === undefined);
      if (!found) throw new ConsoleError(404, 'error.notFound');
      requireStepUp(deps, req, s, found.email === s.session.email ? 'token.revoke' : 'token.revokeOther');
      const by = {
        tenantId: s.tenant.tenantId,
        email: s.session.email,
        role: s.account.role,
        caller: { kind: 'console', signedInAt: s.session.signedInAt } as const,
      };
      await revokePersonalToken(deps, by, tokenId, emit(req, res));
      res.redirect(303, P);
    }),
  );
  return router;
}
