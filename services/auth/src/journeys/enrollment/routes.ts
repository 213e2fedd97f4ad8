import { newFlowId } from '@sesame/flow-events';
import type { Router } from 'express';
import { withBrandOf } from '../../branding/with-brand';
import type { EnrollmentFlow } from '../../flow/flow';
import { negotiateLocale } from '../../i18n';
import { form } from '../../web/body-parsers';
import { originOf, redirectToRp, sendErrorPage, sendPage, thisDevice } from '../../web/respond';
import { firstUnmet } from './checks';
import { type EnrollmentDeps, enrollmentRedirect, recordEnrollment, withEnrollment } from './deps';
import { mountEnrollmentPasskey } from './passkey';
import { mountEnrollmentPhone, showEnrollmentQr } from './qr';
import { enrollPasskeyView } from './view';

const pagePath = (flowId: string) => `/enroll/flow/${flowId}`;

/**
 * The enrollment journey an interactive init URL starts (spec 4.9, purpose device_enrollment):
 * GET /enroll/<token> takes the link (single use) and binds a new enrollment to this browser, then 303 to its
 * page, so a reload never meets a spent link; the page offers **Create a passkey** on this device
 * (passkey.ts) and **Cancel**; both end at the RP's redirect_uri with its state.
 *
 * **Add a phone instead** (the page's `phoneUrl`, a POST) turns the page into the QR of desktop to mobile:
 * the phone creates the passkey and this tab then ends at the RP (qr.ts).
 */
export function mountEnrollmentPages(router: Router, deps: EnrollmentDeps): void {
  router.get('/enroll/:token', (req, res, next) => {
    const run = async () => {
      const locale = negotiateLocale([], req.get('accept-language'));
      const token = String(req.params.token);
      const grant = await deps.enrollmentLinks.take(token);
      if (!grant) {
        await withBrandOf(deps, res, await deps.enrollmentLinks.ownerOf(token));
        return sendErrorPage(deps, req, res, 410, 'enrollLinkInvalid', locale);
      }
      await withBrandOf(deps, res, grant);
      const session = await deps.sessions.ensure(req, res);
      const client = await deps.getClient(grant.clientId);
      if (!client || client.appId !== grant.appId)
        return sendErrorPage(deps, req, res, 410, 'unknownClient', locale);
      const now = deps.now();
      const flow: EnrollmentFlow = {
        journey: 'enrollment',
        id: newFlowId(now),
        tenantId: grant.tenantId,
        appId: grant.appId,
        clientId: grant.clientId,
        appName: client.appName,
        userId: grant.userId,
        sessionKey: session.key,
        request: { redirectUri: grant.redirectUri, ...(grant.state ? { state: grant.state } : {}) },
        locale,
        createdAt: now,
        expiresAt: now + deps.flowTtlMs,
        clientIp: req.ip ?? '',
        originatingDevice: thisDevice(deps, req, res),
      };
      await deps.enrollmentFlows.create(flow);
      await recordEnrollment(deps, flow, 'enroll_start_native');
      res
        .set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' })
        .redirect(303, pagePath(flow.id));
    };
    run().catch(next);
  });

  router.get(
    '/enroll/flow/:flowId',
    withEnrollment(
      deps,
      async (req, res, flow) => {
        if (firstUnmet(flow) === 'passkey-on-phone') return showEnrollmentQr(deps, req, res, flow);
        const view = await enrollPasskeyView(deps, req, res, flow, pagePath(flow.id));
        sendPage(
          deps,
          res,
          'enroll-passkey',
          flow.locale,
          { ...view, phoneUrl: `${pagePath(flow.id)}/phone` },
          { formTargets: [originOf(flow.request.redirectUri)] },
        );
      },
      { csrf: false },
    ),
  );

  router.post(
    '/enroll/flow/:flowId/cancel',
    form,
    withEnrollment(
      deps,
      async (_req, res, flow) => {
        if (!(await deps.enrollmentFlows.take(flow.id))) return void res.redirect(303, pagePath(flow.id));
        await recordEnrollment(deps, flow, 'enroll_native_complete', {
          status: 'failure',
          failureReason: 'the user cancelled the enrollment',
        });
        redirectToRp(
          res,
          enrollmentRedirect(flow, { error: 'access_denied', error_description: 'the user cancelled' }),
          303,
        );
      },
      { csrf: true },
    ),
  );

  mountEnrollmentPasskey(router, deps);
  mountEnrollmentPhone(router, deps);
}
