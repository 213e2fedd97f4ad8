import express, { type Request, type Response, type Router } from 'express';
import { flowStatusHandler } from '../../flow/flow-status';
import { qrSvg } from '../../steps/qr/qr-image';
import { sendPage } from '../../web/respond';
import { type EnrollmentDeps, enrollmentRedirect, recordEnrollment, withEnrollment } from './deps';
import type { EnrollmentFlow } from './flows';
import { mountEnrollmentPhoneSide } from './phone-side';

const form = express.urlencoded({ extended: false, limit: '8kb' });
const pagePath = (flowId: string) => `/enroll/flow/${flowId}`;

/** A QR drawn and never opened whose time is up: the enrollment can only end with unsupported_browser. */
export const enrollQrTimedOut = (deps: Pick<EnrollmentDeps, 'now'>, flow: EnrollmentFlow) =>
  !!flow.qr?.openBy && !flow.qr.openedAt && deps.now() >= flow.qr.openBy;

/**
 * The enrollment page once the person chose "Add a phone instead" (the desktop-to-mobile QR page of sign-in,
 * mobile-steps.ts showQr, for an enrollment). Each showing draws a new one-time link with its own open time
 * (the enrollment keeps only its hash, so an earlier QR is dead); once the phone opened one, only the wait.
 */
export async function showEnrollmentQr(
  deps: EnrollmentDeps,
  req: Request,
  res: Response,
  flow: EnrollmentFlow,
): Promise<void> {
  const base = pagePath(flow.id);
  if (enrollQrTimedOut(deps, flow)) return res.redirect(303, `${base}/phone/next`);
  const session = await deps.sessions.ensure(req, res);
  let linkPath = '';
  if (!flow.qr?.openedAt) {
    const { token, linkHash } = await deps.enrollmentMobileLinks.issue(flow.id);
    linkPath = `/enroll/m/${token}`;
    await deps.enrollmentFlows.save({ ...flow, qr: { linkHash, openBy: deps.now() + deps.qrOpenTimeoutMs } });
    if (flow.qr?.linkHash) await recordEnrollment(deps, flow, 'new_qr_generated');
  }
  const linkText = `${deps.authUrl.replace(/\/+$/, '')}${linkPath}`;
  sendPage(deps, res.set('Cache-Control', 'no-store'), 'mobile-qr', flow.locale, {
    purpose: 'enroll',
    appName: flow.appName,
    qrSvg: linkPath ? await qrSvg(linkText) : '',
    linkPath: linkPath || base,
    linkText,
    seconds: Math.round(deps.qrOpenTimeoutMs / 1000),
    csrf: session.csrf,
    cancelAction: `${base}/cancel`,
    statusUrl: `${base}/phone/status`,
    continueUrl: `${base}/phone/next`,
    expiresAt: flow.expiresAt,
    opened: Boolean(flow.qr?.openedAt),
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
    flowStatusHandler(
      deps.sessions,
      {
        load: (id) => deps.enrollmentFlows.get(id),
        watch: (id, listener) => deps.enrollmentFlows.watch(id, listener),
      },
      (flow) => Boolean(flow.qr?.done || flow.qr?.ended) || enrollQrTimedOut(deps, flow),
      { readyBy: (flow) => (flow.qr?.openedAt ? undefined : flow.qr?.openBy), now: deps.now },
    ),
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
        if (qr?.done) return res.redirect(303, enrollmentRedirect(flow));
        if (qr?.ended) return res.redirect(303, enrollmentRedirect(flow, qr.ended));
        const seconds = Math.round(deps.qrOpenTimeoutMs / 1000);
        await recordEnrollment(deps, flow, 'enroll_native_complete', {
          status: 'failure',
          failureReason: 'the QR code was not opened on a phone in time',
        });
        res.redirect(
          303,
          enrollmentRedirect(flow, {
            error: 'unsupported_browser',
            error_description: `the QR code was not opened with a supported browser within ${seconds} seconds`,
          }),
        );
      },
      { csrf: false },
    ),
  );

  mountEnrollmentPhoneSide(router, deps);
}
