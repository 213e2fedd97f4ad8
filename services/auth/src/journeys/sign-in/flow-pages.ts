import type express from 'express';
import type { Router } from 'express';
import type { Flow } from '../../flow/flow';
import { type FlowContext, withFlow } from '../../flow/flow-guard';
import { flowStatusHandler } from '../../flow/flow-status';
import { signedInAfter } from '../../session/sign-in-session';
import { DeviceNotBoundError, NOT_BOUND_DESCRIPTION } from '../../signin/bound-to';
import { completeSignIn } from '../../signin/complete';
import { errorRedirect } from '../../signin/prove';
import { isTransaction } from '../../signin/request';
import { consentView } from '../../steps/consent/view';
import { emailCodeView, resendWaitSeconds } from '../../steps/email-code/view';
import { identifyView } from '../../steps/identify/view';
import { linkSentView } from '../../steps/magic-link/view';
import { passkeyOfferView } from '../../steps/passkey/view';
import { needsPhone } from '../../steps/phone-number/routes';
import { showQr } from '../../steps/qr/desktop';
import { endOnPhone, finishOnPhone } from '../../steps/qr/phone';
import { showPhoneMatch } from '../../steps/qr/phone-match';
import { form } from '../../web/body-parsers';
import type { HostedDeps } from '../../web/deps';
import { redirectToRp, rpFormTarget, sendPage } from '../../web/respond';
import { firstUnmet } from './checks';
import { endDisabled } from './disabled';

const denied = { error: 'access_denied', description: 'the user denied the request' };

/** The flow's current page, its status for a waiting tab, consent, and the finish that redirects to the RP. */
export function mountFlowPages(router: Router, deps: HostedDeps): void {
  // The scopes this person already granted the app: the consent page does not ask for them again.
  const granted = async (flow: Flow) =>
    flow.userId
      ? ((await deps.users.memberships.get(flow.tenantId, flow.appId, flow.userId))?.consentedScopes ?? [])
      : [];

  router.get(
    '/flow/:flowId',
    withFlow(
      deps,
      async (req, res, { flow, session }) => {
        const { locale } = flow;
        if (flow.ended) return res.redirect(303, `/flow/${flow.id}/continue`);
        // A phone's flow first matches the number its desktop shows (steps/qr/phone-match.ts).
        if (flow.ama && !flow.ama.matched) return showPhoneMatch(deps, res, { flow, session });
        if (flow.proof) return res.redirect(303, `/flow/${flow.id}/continue`);
        if (flow.step === 'qr') return showQr(deps, res, { flow, session });
        if (flow.step === 'email_code') {
          const resendWait = await resendWaitSeconds(deps, flow, req.ip ?? '', session);
          const view = emailCodeView(flow, session.csrf, { resendWaitSeconds: resendWait });
          return sendPage(deps, res, 'email-code', locale, view, { formTargets: rpFormTarget(flow) });
        }
        if (flow.step === 'link_sent')
          return sendPage(deps, res, 'magic-link-sent', locale, linkSentView(flow, deps.issuer));
        const view = identifyView(flow, session.csrf, undefined, req.get('sec-ch-ua-mobile'));
        sendPage(deps, res, 'identify', locale, view);
      },
      { csrf: false },
    ),
  );

  // Polled by the tab that waits for a magic link confirmed elsewhere: says only whether it can go on (proven,
  // or ended by a wrong number picked there), and only to the browser that started the flow.
  router.get(
    '/flow/:flowId/status',
    flowStatusHandler(
      deps.sessions,
      { load: (id) => deps.flows.get(id), watch: (id, listener) => deps.flows.watch(id, listener) },
      (flow) => Boolean(flow.proof) || Boolean(flow.ended),
    ),
  );

  /** bound_to refused the login (signin/bound-to.ts): the flow ends with device_not_bound (spec 7). */
  const refuseUnbound = async (res: express.Response, flow: FlowContext['flow']) => {
    await deps.flows.delete(flow.id);
    redirectToRp(res, errorRedirect(deps, flow.request, 'device_not_bound', NOT_BOUND_DESCRIPTION));
  };

  const finish = async (res: express.Response, ctx: FlowContext) => {
    const { flow, session } = ctx;
    if (flow.ciba && deps.ciba) return deps.ciba.finish(res, ctx);
    // A phone's proof reaches its desktop only after the number match.
    if (flow.ama)
      return flow.ama.matched ? finishOnPhone(deps, res, ctx) : res.redirect(303, `/flow/${flow.id}`);
    // The session's sid goes into the ID token (Back-Channel Logout), so it is known before the code is asked for.
    const signedIn = signedInAfter(
      session.signedIn,
      { userId: flow.userId!, tenantId: flow.tenantId, method: flow.proof!.method, authTime: flow.proof!.at },
      flow.clientId,
    );
    const location = await completeSignIn(deps, { ...flow, step: 'ready' }, signedIn.sid).catch(
      (err: unknown) => {
        if (!(err instanceof DeviceNotBoundError)) throw err;
        return undefined;
      },
    );
    if (location === undefined) return refuseUnbound(res, flow);
    await deps.sessions.rotate(res, session, signedIn, {
      device: flow.originatingDevice.facts,
      clientIp: flow.clientIp,
    });
    redirectToRp(res, location);
  };

  /** A rule blocked the proven person: the flow ends (CIBA denies, a phone tells its desktop, else the RP). */
  const endBlocked = async (res: express.Response, flow: FlowContext['flow']) => {
    if (flow.blockedBy === 'disabled') return endDisabled(deps, res, flow);
    if (flow.ciba && deps.ciba) {
      const notBound =
        flow.blockedBy === 'not_bound' ? `device_not_bound: ${NOT_BOUND_DESCRIPTION}` : undefined;
      return deps.ciba.deny(res, flow, notBound);
    }
    if (flow.ama) {
      const [error, description] =
        flow.blockedBy === 'location'
          ? ['risk_access_restriction', 'sign-in from a blocked location']
          : flow.blockedBy === 'not_bound'
            ? ['device_not_bound', NOT_BOUND_DESCRIPTION]
            : ['access_denied', 'this device is blocked for this user'];
      return endOnPhone(deps, res, flow, 'refused', { error, description });
    }
    if (flow.blockedBy === 'not_bound') return refuseUnbound(res, flow);
    await deps.flows.delete(flow.id);
    const blocked =
      flow.blockedBy === 'location'
        ? errorRedirect(deps, flow.request, 'risk_access_restriction', 'sign-in from a blocked location')
        : errorRedirect(deps, flow.request, 'access_denied', 'this device is blocked for this user');
    redirectToRp(res, blocked);
  };

  /** A wrong number was picked on the device that opened the magic link: this flow ends with that error. */
  const endAfterMismatch = async (res: express.Response, flow: FlowContext['flow']) => {
    const ended = flow.ended!;
    if (flow.ciba && deps.ciba) return deps.ciba.deny(res, flow, ended.description);
    await deps.flows.delete(flow.id);
    redirectToRp(res, errorRedirect(deps, flow.request, ended.error, ended.description));
  };

  router.get(
    '/flow/:flowId/continue',
    withFlow(
      deps,
      async (_req, res, ctx) => {
        const { flow, session } = ctx;
        if (flow.ended) return endAfterMismatch(res, flow);
        if (flow.ama && !flow.ama.matched) return res.redirect(303, `/flow/${flow.id}`);
        switch (firstUnmet(flow)) {
          case 'proven':
            return res.redirect(303, `/flow/${flow.id}`);
          case 'allowed':
            return endBlocked(res, flow);
          case 'phone-verified':
            return res.redirect(303, `/flow/${flow.id}/phone`);
          case 'passkey-offered':
            return sendPage(deps, res, 'passkey-offer', flow.locale, passkeyOfferView(flow, session.csrf), {
              formTargets: rpFormTarget(flow),
            });
          case 'consented':
            if (isTransaction(flow.request) && !flow.ama) await deps.record(flow, 'desktop_transaction_page');
            return sendPage(
              deps,
              res,
              'consent',
              flow.locale,
              consentView(flow, session.csrf, await granted(flow)),
              {
                formTargets: rpFormTarget(flow),
              },
            );
          case undefined:
            return finish(res, ctx);
        }
      },
      { csrf: false },
    ),
  );

  router.post(
    '/flow/:flowId/consent',
    form,
    withFlow(
      deps,
      async (req, res, ctx) => {
        const { flow } = ctx;
        if (!flow.proof || (flow.step !== 'consent' && !flow.ciba) || needsPhone(flow))
          return res.redirect(303, `/flow/${flow.id}`);
        const approve = (req.body as Record<string, unknown>).decision === 'approve';
        const transaction = isTransaction(flow.request);
        await deps.record(flow, flow.ama ? 'ama_consent' : 'desktop_consent', {
          consentDecision: approve ? 'approve' : 'reject',
          ...(transaction && !flow.ama ? { desktopTransactionDecision: approve ? 'approve' : 'reject' } : {}),
          ...(approve ? {} : { status: 'failure', errorCode: 'Consent_screen_rejected' }),
        });
        if (approve) return finish(res, ctx);
        if (flow.ciba && deps.ciba) return deps.ciba.deny(res, flow);
        if (flow.ama) return endOnPhone(deps, res, flow, 'declined', denied);
        await deps.flows.delete(flow.id);
        redirectToRp(res, errorRedirect(deps, flow.request, denied.error, denied.description));
      },
      { csrf: true },
    ),
  );
}
