import { GrpcStatus, isGrpcStatus } from '@sesame/platform';
import type { Request, Response, Router } from 'express';
import { withBrandOf } from '../../branding/with-brand';
import type { CibaDeps } from '../../ciba/deps';
import type { Flow } from '../../flow/flow';
import type { SignInRequest } from '../../signin/request';
import { form } from '../../web/body-parsers';
import { sendErrorPage, sendLinkInvalid, sendPage } from '../../web/respond';

/** Grants' answer for a request that expired or was already decided: the link is no longer any use. */
export const isSettledOrGone = (err: unknown) =>
  isGrpcStatus(err, GrpcStatus.NOT_FOUND) || isGrpcStatus(err, GrpcStatus.FAILED_PRECONDITION);

/**
 * The CIBA link `{auth_url}/ciba/<token>`. Opening it marks the request link_opened (Grants) and shows who
 * asks and the binding_message, with a Continue button; Continue (a POST) takes the link, binds the flow to
 * this browser, and hands over to the hosted sign-in pages (/flow/<id>) for the hinted user.
 */
export function mountCibaLinkPages(router: Router, deps: CibaDeps): void {
  const gone = (req: Request, res: Response, flow?: Flow<SignInRequest>) =>
    sendLinkInvalid(deps, req, res, flow?.locale);

  router.get('/ciba/:token', (req, res, next) => {
    const run = async () => {
      const token = String(req.params.token);
      const flowId = await deps.cibaLinks.lookup(token);
      const flow = flowId ? await deps.flows.get(flowId) : undefined;
      if (!flow?.ciba) return gone(req, res);
      await withBrandOf(deps, res, flow);
      try {
        await deps.grants.markBackchannelOpened(deps.sealer.open(flow.ciba.sealedAuthReqId));
      } catch (err) {
        if (isSettledOrGone(err)) return gone(req, res, flow);
        throw err;
      }
      const session = await deps.sessions.ensure(req, res);
      sendPage(deps, res, 'ciba-start', flow.locale, {
        appName: flow.appName,
        bindingMessage: flow.request.customMessage,
        action: `/ciba/${token}`,
        csrf: session.csrf,
      });
    };
    run().catch(next);
  });

  router.post('/ciba/:token', form, (req, res, next) => {
    const run = async () => {
      const session = await deps.sessions.load(req);
      if (!session || !deps.sessions.csrfMatches(session, (req.body as Record<string, unknown>).csrf)) {
        return sendErrorPage(deps, req, res, 403, 'csrf');
      }
      const flowId = await deps.cibaLinks.consume(String(req.params.token));
      const flow = flowId ? await deps.flows.get(flowId) : undefined;
      if (!flow?.ciba) return gone(req, res);
      await withBrandOf(deps, res, flow);
      const bound: Flow<SignInRequest> = {
        ...flow,
        sessionKey: session.key,
        ciba: { ...flow.ciba, linkTaken: true },
      };
      if (!(await deps.flows.save(bound))) return gone(req, res, flow);
      await deps.record(bound, 'desktop_login_page');
      res.redirect(303, `/flow/${flow.id}`);
    };
    run().catch(next);
  });
}
