import type { Response, Router } from 'express';
import type { Flow } from '../../flow/flow';
import { type FlowContext, withFlow } from '../../flow/flow-guard';
import { NUMBER_MISMATCH_ENDING } from '../../flow/number-match';
import type { SignInRequest } from '../../signin/request';
import { form } from '../../web/body-parsers';
import type { HostedDeps } from '../../web/deps';
import { sendErrorPage, sendPage } from '../../web/respond';
import { recordMismatch, takePick } from '../number-match/pick';
import { numberMatchView } from '../number-match/view';
import { desktopOf, endDesktopFromPhone } from './phone';

type SignInFlow = Flow<SignInRequest>;

/**
 * Desktop to mobile, the phone's first page (GET /flow/:id of a phone's flow until it is matched): "This
 * sign-in will continue on another device", the desktop's browser, OS, place and start time, and the three
 * numbers of the desktop flow's number match (the desktop's QR page shows the right one). Nothing of the
 * phone's sign-in happens before the match: its proof reaches the desktop only once `ama.matched`.
 */
export async function showPhoneMatch(deps: HostedDeps, res: Response, { flow, session }: FlowContext) {
  const desktop = await desktopOf(deps, flow);
  if (!desktop) {
    await deps.flows.delete(flow.id);
    return sendPage(
      deps,
      res,
      'error',
      flow.locale,
      { title: 'error.flowExpired.title', message: 'error.flowExpired.message' },
      { status: 410 },
    );
  }
  // A desktop flow from before numbers were drawn has none to match: the phone cannot go on.
  if (!desktop.numberMatch) return refuseOnPhone(deps, res, flow);
  const view = numberMatchView(deps, {
    purpose: 'phone',
    started: desktop,
    match: desktop.numberMatch,
    email: flow.email,
    action: `/flow/${flow.id}/mobile/match`,
    csrf: session.csrf,
  });
  sendPage(deps, res.set('Cache-Control', 'no-store'), 'number-match', flow.locale, view);
}

async function refuseOnPhone(deps: HostedDeps, res: Response, flow: SignInFlow) {
  await endDesktopFromPhone(deps, flow, {
    error: 'access_denied',
    description: 'the sign-in cannot be confirmed on the phone',
  });
  sendPage(deps, res, 'mobile-done', flow.locale, { outcome: 'refused' }, { status: 403 });
}

/**
 * POST /flow/:id/mobile/match (the phone's pick, one per desktop flow): the right number lets the phone's
 * sign-in begin; a wrong one is recorded (device_auth, failure, number_mismatch) and ends both flows (the
 * desktop's tab ends at the RP with access_denied); a second pick is refused (409).
 */
export function mountPhoneMatch(router: Router, deps: HostedDeps): void {
  router.post(
    '/flow/:flowId/mobile/match',
    form,
    withFlow(
      deps,
      async (req, res, { flow }) => {
        res.set('Cache-Control', 'no-store');
        if (!flow.ama) return res.redirect(303, `/flow/${flow.id}`);
        if (flow.ama.matched) return sendErrorPage(deps, req, res, 409, 'numberPicked', flow.locale);
        const desktop = await desktopOf(deps, flow);
        if (!desktop) return sendErrorPage(deps, req, res, 410, 'flowExpired', flow.locale);
        const pick = await takePick(deps, desktop, (req.body as Record<string, unknown>).choice);
        if (pick === 'invalid') return sendErrorPage(deps, req, res, 400, 'numberMissing', flow.locale);
        if (pick === 'replayed') return sendErrorPage(deps, req, res, 409, 'numberPicked', flow.locale);
        if (pick === 'wrong') {
          await recordMismatch(deps, flow, 'device_auth', req.ip ?? '');
          await endDesktopFromPhone(deps, flow, { ...NUMBER_MISMATCH_ENDING });
          return sendPage(deps, res, 'mobile-done', flow.locale, { outcome: 'mismatch' }, { status: 403 });
        }
        await deps.flows.save({ ...flow, ama: { ...flow.ama, matched: true } });
        res.redirect(303, `/flow/${flow.id}`);
      },
      { csrf: true },
    ),
  );
}
