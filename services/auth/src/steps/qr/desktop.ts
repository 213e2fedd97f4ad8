import type { Response, Router } from 'express';
import type { Flow } from '../../flow/flow';
import { type FlowContext, withFlow } from '../../flow/flow-guard';
import { newNumberMatch } from '../../flow/number-match';
import { errorRedirect } from '../../signin/prove';
import { type SignInRequest, isTransaction } from '../../signin/request';
import { findTenantMember } from '../../users/tenant-member';
import { form } from '../../web/body-parsers';
import type { HostedDeps } from '../../web/deps';
import { redirectToRp, rpFormTarget, sendPage } from '../../web/respond';
import { sendEmailCode } from '../email-code/send';
import { mountMobilePhoneSteps } from './phone';
import { mountPhoneMatch } from './phone-match';
import { qrStatusHandler, qrTimedOut, sendQrPage } from './qr-page';

type SignInFlow = Flow<SignInRequest>;

/**
 * A QR that was never opened and whose time is up (spec 8): its link is dead. The desktop shows "The code
 * expired" and the person chooses: a new code, an email code, back to the sign-in page, or back to the app
 * (only then does the RP get unsupported_browser).
 */
export const signInQrTimedOut = (deps: Pick<HostedDeps, 'now'>, flow: SignInFlow) =>
  flow.step === 'qr' && qrTimedOut(flow.qr, deps.now());

/** May this flow switch to the phone? Only the desktop's own, unproven, browser flow. */
const canUseMobile = (flow: SignInFlow) => !flow.proof && !flow.ama && !flow.ciba;

/**
 * The rule for the automatic QR: the typed address is a user with an active passkey, none of them on
 * this desktop, and the person has not asked for an email code instead. Unknown addresses get the email code,
 * and so do addresses of people who are not members of this tenant (users/tenant-member.ts).
 */
export async function desktopLacksPasskey(
  deps: HostedDeps,
  flow: SignInFlow,
  email: string,
): Promise<boolean> {
  if (!canUseMobile(flow) || flow.emailInstead) return false;
  const user = await findTenantMember(deps.users, flow.tenantId, email);
  if (!user) return false;
  const active = (await deps.passkeys.listForUser(user.userId)).filter((p) => p.status === 'active');
  return active.length > 0 && !active.some((p) => p.deviceId === flow.originatingDevice.deviceId);
}

/**
 * The person chose the phone ("Use my phone", or the automatic QR when this desktop holds no passkey of theirs):
 * the flow waits on the QR page, and the decision is recorded once (desktopLogin/TransactionDecision use_mobile).
 */
export async function switchToMobile(deps: HostedDeps, flow: SignInFlow): Promise<void> {
  await deps.flows.save({ ...flow, step: 'qr', qr: undefined });
  await deps.record(
    flow,
    'new_qr_generated',
    isTransaction(flow.request)
      ? { desktopTransactionDecision: 'use_mobile' }
      : { desktopLoginDecision: 'use_mobile' },
  );
}

/**
 * The QR page (GET /flow/:id at step `qr`): the one QR page of every journey (qr-page.ts); once its time ran out
 * unopened, "The code expired" with the ways forward (a lost sign-in costs more than a wait).
 */
export async function showQr(deps: HostedDeps, res: Response, ctx: FlowContext): Promise<void> {
  const { session } = ctx;
  if (signInQrTimedOut(deps, ctx.flow)) return showQrExpired(deps, res, ctx);
  // The number the phone will ask for (flow/number-match.ts): drawn once, kept with the flow by `keep`.
  const numberMatch = ctx.flow.numberMatch ?? newNumberMatch();
  const flow = { ...ctx.flow, numberMatch };
  const base = `/flow/${flow.id}`;
  const aux = flow.request.auxLink;
  await sendQrPage(deps, res, {
    flow,
    base,
    links: deps.mobileLinks,
    linkPrefix: '/m/',
    csrf: async () => session.csrf,
    keep: (qr) => deps.flows.save({ ...flow, qr }),
    redrawn: () => deps.record(flow, 'new_qr_generated'),
    view: {
      appName: flow.appName,
      emailInsteadAction: flow.email ? `${base}/mobile/email-instead` : undefined,
      // Before the phone opened the link: a new code (the time starts again), or back to the sign-in page.
      ...(flow.qr?.openedAt
        ? {}
        : { newCodeAction: `${base}/mobile/new-code`, cancelAction: `${base}/mobile/cancel` }),
      statusUrl: `${base}/mobile/status`,
      continueUrl: `${base}/mobile/next`,
      auxLink: aux ? { href: aux.url, title: aux.title } : undefined,
      matchCode: numberMatch.code,
    },
  });
}

/** "The code expired" (qr-expired): its Back to <app> may end at the RP, so the RP's origin is a form target. */
function showQrExpired(deps: HostedDeps, res: Response, { flow, session }: FlowContext): void {
  const base = `/flow/${flow.id}`;
  const view = {
    appName: flow.appName,
    seconds: Math.round(deps.qrOpenTimeoutMs / 1000),
    csrf: session.csrf,
    newCodeAction: `${base}/mobile/new-code`,
    emailInsteadAction: flow.email ? `${base}/mobile/email-instead` : undefined,
    cancelAction: `${base}/mobile/cancel`,
    backAction: `${base}/mobile/back`,
  };
  sendPage(deps, res.set('Cache-Control', 'no-store'), 'qr-expired', flow.locale, view, {
    formTargets: rpFormTarget(flow),
  });
}

/** The true reason the RP gets when the person gives up on a QR that ran out (spec 7's unsupported_browser). */
export function qrNotOpenedDescription(timeoutMs: number): string {
  const seconds = Math.round(timeoutMs / 1000);
  return `the QR link was not opened within ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}

/** Desktop to mobile, the desktop's side: the switch, the tab's status poll and where it goes next. */
export function mountMobileSteps(router: Router, deps: HostedDeps): void {
  // "Use an email code instead" on the QR page: the code goes to the address typed, and the code page follows
  // (no QR again in this flow); also offered once the code expired. A QR already opened keeps its own ending.
  router.post(
    '/flow/:flowId/mobile/email-instead',
    form,
    withFlow(
      deps,
      async (req, res, ctx) => {
        const { flow } = ctx;
        if (flow.step === 'qr' && flow.email && !flow.qr?.openedAt && !flow.qr?.ended) {
          const withoutQr = { ...flow, step: 'identify' as const, qr: undefined, emailInstead: true };
          await deps.flows.save(withoutQr);
          if (!(await sendEmailCode(deps, req, res, { ...ctx, flow: withoutQr }, flow.email))) return;
          await deps.flows.save({ ...withoutQr, step: 'email_code' });
        }
        res.redirect(303, `/flow/${flow.id}`);
      },
      { csrf: true },
    ),
  );

  // **Show a new code** on the QR page or once the code expired: a new one-time link with its own open time (the
  // last one is dead), while no phone opened one. Recorded as new_qr_generated (spec 2.4).
  router.post(
    '/flow/:flowId/mobile/new-code',
    form,
    withFlow(
      deps,
      async (_req, res, { flow }) => {
        if (flow.step === 'qr' && !flow.proof && !flow.qr?.openedAt && !flow.qr?.ended) {
          await deps.flows.save({ ...flow, qr: undefined });
          await deps.record(flow, 'new_qr_generated');
        }
        res.redirect(303, `/flow/${flow.id}`);
      },
      { csrf: true },
    ),
  );

  // **Cancel** on the QR page or once the code expired: back to the sign-in page to choose another way (no
  // automatic QR again), while no phone opened the link; the sign-in goes on.
  router.post(
    '/flow/:flowId/mobile/cancel',
    form,
    withFlow(
      deps,
      async (_req, res, { flow }) => {
        if (flow.step === 'qr' && !flow.proof && !flow.qr?.openedAt && !flow.qr?.ended)
          await deps.flows.save({ ...flow, step: 'identify', qr: undefined, emailInstead: true });
        res.redirect(303, `/flow/${flow.id}`);
      },
      { csrf: true },
    ),
  );

  router.post(
    '/flow/:flowId/mobile',
    form,
    withFlow(
      deps,
      async (_req, res, { flow }) => {
        if (canUseMobile(flow) && flow.step !== 'qr') await switchToMobile(deps, flow);
        res.redirect(303, `/flow/${flow.id}`);
      },
      { csrf: true },
    ),
  );

  // **Back to <app>** once the code expired: the person gives up, so the flow ends at the RP with spec 7's
  // unsupported_browser and the true reason (recorded as device_auth failure). Anything else: back to the page.
  router.post(
    '/flow/:flowId/mobile/back',
    form,
    withFlow(
      deps,
      async (_req, res, { flow }) => {
        if (!signInQrTimedOut(deps, flow) || flow.proof || flow.qr?.ended)
          return res.redirect(303, `/flow/${flow.id}`);
        await deps.flows.delete(flow.id);
        await deps.record(flow, 'device_auth', {
          status: 'failure',
          errorCode: 'auth_failure',
          failureReason: 'the QR code was not opened on a phone in time',
        });
        const description = qrNotOpenedDescription(deps.qrOpenTimeoutMs);
        redirectToRp(res, errorRedirect(deps, flow.request, 'unsupported_browser', description), 303);
      },
      { csrf: true },
    ),
  );

  // Polled by the QR page (pages/assets/flow-wait.js): "ready" once the phone proved the person, declined, or
  // the QR's 30 s passed unopened; the tab then follows /mobile/next, which leads to the RP only for the first
  // two: an expired code leads back to the flow's page ("The code expired"), never to the RP by itself. Only the
  // browser that started the flow asks.
  router.get(
    '/flow/:flowId/mobile/status',
    qrStatusHandler(deps, deps.flows, {
      qrOf: (flow) => (flow.step === 'qr' ? flow.qr : undefined),
      over: (flow) => Boolean(flow.proof) || Boolean(flow.qr?.ended),
    }),
  );

  router.get(
    '/flow/:flowId/mobile/next',
    withFlow(
      deps,
      async (_req, res, { flow }) => {
        if (flow.proof) return res.redirect(303, `/flow/${flow.id}/continue`);
        const ended = flow.qr?.ended;
        if (ended) {
          await deps.flows.delete(flow.id);
          return redirectToRp(res, errorRedirect(deps, flow.request, ended.error, ended.description));
        }
        // Still waiting, or the code expired (its page offers the ways forward): the flow's page.
        res.redirect(303, `/flow/${flow.id}`);
      },
      { csrf: false },
    ),
  );

  mountMobilePhoneSteps(router, deps);
  mountPhoneMatch(router, deps);
}
