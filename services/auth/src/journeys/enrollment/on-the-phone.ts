import type { Request, Response, Router } from 'express';
import type { EnrollmentFlow } from '../../flow/flow';
import { negotiateLocale } from '../../i18n';
import type { RegistrationResponseJSON } from '../../passkeys/ceremonies';
import {
  deviceEventOf,
  finishPasskeyCreation,
  rememberDevice,
  webAuthnResponse,
} from '../../steps/passkey/webauthn';
import { bindPhone } from '../../steps/qr/qr-page';
import { form, json } from '../../web/body-parsers';
import { sendLinkInvalid, sendPage } from '../../web/respond';
import { type EnrollmentDeps, recordEnrollment, withEnrollmentPhone } from './deps';
import { enrollPasskeyView } from './view';

const phonePath = (flowId: string) => `/enroll/flow/${flowId}/phone`;
/** The phone's last page: nothing of the enrollment is in its path. */
const DONE_PATH = '/enroll/phone/done';
/** The ceremony's challenge of the phone, apart from any the desktop tab may ask for. */
const ceremonyKey = (flow: EnrollmentFlow) => `${flow.id}:phone`;

/**
 * Desktop to mobile for an enrollment, the phone's side. Opening the QR's link (within its open time, once,
 * and only the link the desktop shows now) binds the phone's own browser session and device to the
 * enrollment; the phone then creates a passkey for the enrollment's user with the same ceremony as
 * passkey.ts, on its own device, and the desktop tab ends at the RP.
 */
export function mountEnrollmentPhoneSide(router: Router, deps: EnrollmentDeps): void {
  const refuse = (req: Request, res: Response, flow?: EnrollmentFlow) =>
    sendLinkInvalid(deps, req, res, flow?.locale);

  router.get(DONE_PATH, (req, res) => {
    sendPage(deps, res, 'mobile-done', negotiateLocale([], req.get('accept-language')), {});
  });

  router.get('/enroll/m/:token', (req, res, next) => {
    bindPhone(deps, req, res, {
      links: deps.enrollmentMobileLinks,
      load: (id) => deps.enrollmentFlows.get(id),
      save: (flow) => deps.enrollmentFlows.save(flow),
      refuse: (flow) => refuse(req, res, flow),
      opened: async (flow) => {
        await recordEnrollment(deps, flow, 'user_scan_qr');
        res.redirect(303, `${phonePath(flow.id)}/enroll`);
      },
    }).catch(next);
  });

  router.get(
    '/enroll/flow/:flowId/phone/enroll',
    withEnrollmentPhone(
      deps,
      async (req, res, flow) => {
        const view = await enrollPasskeyView(deps, req, res, flow, phonePath(flow.id));
        sendPage(deps, res, 'enroll-passkey', flow.locale, view);
      },
      { csrf: false },
    ),
  );

  router.post(
    '/enroll/flow/:flowId/phone/cancel',
    form,
    withEnrollmentPhone(
      deps,
      async (_req, res, flow) => {
        const ended = { error: 'access_denied', error_description: 'the user cancelled on the phone' };
        await deps.enrollmentFlows.save({ ...flow, qr: { ...flow.qr, ended } as EnrollmentFlow['qr'] });
        await recordEnrollment(deps, flow, 'enroll_native_complete', {
          status: 'failure',
          failureReason: 'the user cancelled the enrollment on the phone',
        });
        sendPage(deps, res, 'mobile-done', flow.locale, { outcome: 'declined' });
      },
      { csrf: true },
    ),
  );

  router.post(
    '/enroll/flow/:flowId/phone/passkey/create-options',
    json,
    withEnrollmentPhone(
      deps,
      async (_req, res, flow) => {
        const user = await deps.users.users.get(flow.userId);
        if (!user) return void res.status(410).json({ error: 'expired' });
        res.json(
          await deps.ceremonies.registrationOptions(ceremonyKey(flow), {
            userId: user.userId,
            email: user.email,
          }),
        );
      },
      { csrf: true },
    ),
  );

  router.post(
    '/enroll/flow/:flowId/phone/passkey/create',
    json,
    withEnrollmentPhone(
      deps,
      async (req, res, flow) => {
        const response = webAuthnResponse<RegistrationResponseJSON>(req);
        if (!response) return void res.status(400).json({ error: 'invalidResponse' });
        const device = flow.qr?.phoneDevice;
        if (!device) return void res.status(410).json({ error: 'expired' });
        const created = await finishPasskeyCreation(deps, req, res, {
          ceremonyKey: ceremonyKey(flow),
          userId: flow.userId,
          device,
          response,
          flowId: flow.id,
          what: 'phone enrollment passkey',
        });
        if (!created) return;
        await deps.enrollmentFlows.save({ ...flow, qr: { ...flow.qr, done: true } });
        await rememberDevice(deps, flow.userId, device, created.known);
        const deviceEvent = deviceEventOf(created);
        if (deviceEvent) await recordEnrollment(deps, flow, deviceEvent, { authMethodType: 'fido2' });
        await recordEnrollment(deps, flow, 'enroll_native_complete', {
          status: 'success',
          authMethodType: 'fido2',
        });
        res.json({ location: DONE_PATH });
      },
      { csrf: true },
    ),
  );
}
