import type { Request, Response, Router } from 'express';
import type { EnrollmentFlow } from '../../flow/flow';
import { qrStatusHandler, qrTimedOut, sendQrPage } from '../../steps/qr/qr-page';
import { form } from '../../web/body-parsers';
import { redirectToRp } from '../../web/respond';
import { type EnrollmentDeps, enrollmentRedirect, recordEnrollment, withEnrollment } from './deps';
import { mountEnrollmentPhoneSide } from './on-the-phone';

const pagePath = (flowId: string) => `/enroll/flow/${flowId}`;

/** A QR drawn and never opened whose time is up: the enrollment can only end with unsupported_browser. */
const enrollQrTimedOut = (deps: Pick<EnrollmentDeps, 'now'>, flow: EnrollmentFlow) =>
  qrTimedOut(flow.qr, deps.now());

/** The enrollment page once the person chose "Add a phone instead": the QR page of every journey. */
export async function showEnrollmentQr(
  deps: EnrollmentDeps,
  req: Request,
  res: Response,
  flow: EnrollmentFlow,
): Promise<void> {
  const base = pagePath(flow.id);
  await sendQrPage(deps, res, {
    flow,
    base,
    links: deps.enrollmentMobileLinks,
    linkPrefix: '/enroll/m/',
    csrf: async () => (await deps.sessions.ensure(req, res)).csrf,
    keep: (qr) => deps.enrollmentFlows.save({ ...flow, qr }),
    redrawn: () => recordEnrollment(deps, flow, 'new_qr_generated'),
    view: {
      purpose: 'enroll',
      appName: flow.appName,
      cancelAction: `${base}/cancel`,
      statusUrl: `${base}/phone/status`,
      continueUrl: `${base}/phone/next`,
    },
    noStore: true,
  });
}

/**
 * Desktop to mobile for an enrollment, the desktop's side: the switch to the QR (a POST with the CSRF token,
 * so no GET changes what the enrollment is), the tab's status poll (pages/assets/flow-wait.js), and its end.
 */
export function mountEnrollmentPhone(router: Router, deps: EnrollmentDeps): void {
  router.post(
    '/enroll/flow/:flowId/phone',
    form,
    withEnrollment(
      deps,
      async (_req, res, flow) => {
        if (!flow.qr) {
          await deps.enrollmentFlows.save({ ...flow, qr: {} });
          await recordEnrollment(deps, flow, 'new_qr_generated');
        }
        res.redirect(303, pagePath(flow.id));
      },
      { csrf: true },
    ),
  );

  // "ready" once the phone stored its passkey or cancelled, or the QR's time passed unopened. Only the
  // browser that opened the enrollment is told anything.
  router.get(
    '/enroll/flow/:flowId/phone/status',
    qrStatusHandler(deps, deps.enrollmentFlows, {
      qrOf: (flow) => flow.qr,
      over: (flow) => Boolean(flow.qr?.done || flow.qr?.ended),
    }),
  );

  router.get(
    '/enroll/flow/:flowId/phone/next',
    withEnrollment(
      deps,
      async (_req, res, flow) => {
        const qr = flow.qr;
        const over = qr?.done || qr?.ended || enrollQrTimedOut(deps, flow);
        if (!over) return res.redirect(303, pagePath(flow.id));
        // The one tab that takes the enrollment ends it; a second one finds the page gone (410).
        if (!(await deps.enrollmentFlows.take(flow.id))) return res.redirect(303, pagePath(flow.id));
        res.set('Referrer-Policy', 'no-referrer');
        if (qr?.done) return redirectToRp(res, enrollmentRedirect(flow), 303);
        if (qr?.ended) return redirectToRp(res, enrollmentRedirect(flow, qr.ended), 303);
        const seconds = Math.round(deps.qrOpenTimeoutMs / 1000);
        await recordEnrollment(deps, flow, 'enroll_native_complete', {
          status: 'failure',
          failureReason: 'the QR code was not opened on a phone in time',
        });
        redirectToRp(
          res,
          enrollmentRedirect(flow, {
            error: 'unsupported_browser',
            error_description: `the QR code was not opened with a supported browser within ${seconds} seconds`,
          }),
          303,
        );
      },
      { csrf: false },
    ),
  );

  mountEnrollmentPhoneSide(router, deps);
}
