import type { Response } from 'express';
import type { CibaDeps } from '../../ciba/deps';
import type { Flow } from '../../flow/flow';
import { signedInKeeping } from '../../session/sign-in-session';
import { DeviceNotBoundError } from '../../signin/bound-to';
import { completeSignIn } from '../../signin/complete';
import type { SignInRequest } from '../../signin/request';
import type { CibaHooks } from '../../web/deps';
import { sendErrorPage, sendPage } from '../../web/respond';
import { isSettledOrGone } from './link-pages';

export function cibaHooks(deps: CibaDeps): CibaHooks {
  const authReqIdOf = (flow: Flow<SignInRequest>) => deps.sealer.open(flow.ciba?.sealedAuthReqId ?? '');
  const refuse = async (res: Response, flow: Flow<SignInRequest>, reason: string) => {
    await deps.flows.delete(flow.id);
    try {
      await deps.grants.denyBackchannel(authReqIdOf(flow), reason);
    } catch (err) {
      if (!isSettledOrGone(err)) throw err;
    }
    sendPage(deps, res, 'done', flow.locale, { title: 'ciba.denied.title', message: 'ciba.denied.text' });
  };
  return {
    /**
     * Approved: the same completion as a browser sign-in (login recorded, the complete claim set computed),
     * except that the claim set goes to Grants.CompleteBackchannel instead of IssueCode, and the activity
     * record's last action is auth_native_complete. The person sees a done page; the RP polls (or is pinged).
     */
    async finish(res, { flow, session }) {
      const hint = flow.request.loginHint;
      if (hint && flow.email !== hint) {
        return sendErrorPage(deps, res.req, res, 403, 'cibaWrongUser', flow.locale);
      }
      const authReqId = authReqIdOf(flow);
      try {
        await completeSignIn(
          {
            ...deps,
            issueCode: async (grant) => {
              if (!grant.claims) throw new Error('no claim set to complete the CIBA request with');
              await deps.grants.completeBackchannel(authReqId, grant.claims, grant.login);
              return { code: '', expiresIn: 0 };
            },
            record: (f, action, facts) =>
              deps.record(f, action === 'auth_complete' ? 'auth_native_complete' : action, facts),
          },
          { ...flow, step: 'ready' },
        );
      } catch (err) {
        if (isSettledOrGone(err)) return sendErrorPage(deps, res.req, res, 410, 'linkExpired', flow.locale);
        // bound_to refused the login at completion: the RP's next poll gets access_denied.
        if (err instanceof DeviceNotBoundError) return refuse(res, flow, `device_not_bound: ${err.message}`);
        throw err;
      }
      await deps.sessions.rotate(
        res,
        session,
        signedInKeeping(session.signedIn, {
          userId: flow.userId!,
          tenantId: flow.tenantId,
          method: flow.proof!.method,
          authTime: flow.proof!.at,
        }),
        { device: flow.originatingDevice.facts, clientIp: flow.clientIp },
      );
      sendPage(deps, res, 'done', flow.locale, { title: 'ciba.done.title', message: 'ciba.done.text' });
    },
    /** Denied on the consent page: Grants.DenyBackchannel, so the RP's next poll gets access_denied. */
    deny: (res, flow, reason = 'the user denied the request') => refuse(res, flow, reason),
  };
}
