import type { Request, Response, Router } from 'express';
import { MobileLinks } from '../../flow/qr-links';
import { negotiateLocale } from '../../i18n';
import type { RegistrationResponseJSON } from '../../passkeys/ceremonies';
import type { BrowserSession } from '../../session/browser-session';
import { finishPasskeyCreation, webAuthnResponse } from '../../steps/passkey/webauthn';
import { bindPhone, qrStatusHandler, qrTimedOut, sendQrPage } from '../../steps/qr/qr-page';
import { form, json } from '../../web/body-parsers';
import { sendLinkInvalid, sendPage } from '../../web/respond';
import {
  type RegistrationDeps,
  type RegistrationFlow,
  type RegistrationFlows,
  recordRegistration,
  sendRegistrationComplete,
  withRegistration,
  withRegistrationPhone,
} from './flow';
import { finishRegistration, sendPasskeyOptions } from './passkey';
import { registerPasskeyView } from './view';

const base = (flow: RegistrationFlow) => `/registration/${flow.id}`;
/** The phone's ceremony challenge, apart from any the desktop tab may ask for. */
const ceremonyKey = (flow: RegistrationFlow) => `${flow.id}:phone`;
const timedOut = (now: number, flow: RegistrationFlow) => qrTimedOut(flow.qr, now);

type PhoneHandler = (req: Request, res: Response, flow: RegistrationFlow) => Promise<void>;

/**
 * Desktop to mobile for a registration by link: **Use my phone** on the passkey step shows the QR of a one-time
 * link (`/register/m/<token>`, MobileLinks in its own keyspace); the phone opens it once and in time, creates
 * the passkey on its own device (the same ceremony and finish as passkey.ts) and its completion
 * page shows the invitation's secondaryCompletionMessage (phoneSide); the desktop tab then shows the normal
 * completion page. A QR left unopened past its time sends the desktop back to the passkey step.
 *
 * When the invitation asks for a verified phone, that happens on the desktop before any QR: Use my phone is
 * only offered at the passkey step, which follows the phone step (phone-number.ts), and the
 * phone's link opens only at `passkey`. The desktop is the browser the emailed link was taken in, so one
 * place owns every verification; the phone only adds its passkey, and the SMS still reaches the phone.
 */
export function registrationPhone(deps: RegistrationDeps, flows: RegistrationFlows) {
  const links = new MobileLinks(deps.kv, {
    ttlMs: deps.qrOpenTimeoutMs,
    memoryMs: deps.flowTtlMs,
    prefix: 'register-mobile-link',
  });

  const onPhone = (handler: PhoneHandler, opts: { csrf: boolean }) =>
    withRegistrationPhone(deps, flows, handler, opts);

  /** The QR page of every journey (steps/qr/qr-page.ts), for a registration. */
  async function showQr(
    _req: Request,
    res: Response,
    { flow, session }: { flow: RegistrationFlow; session: BrowserSession },
  ): Promise<void> {
    await sendQrPage(deps, res, {
      flow,
      base: base(flow),
      links,
      linkPrefix: '/register/m/',
      csrf: async () => session.csrf,
      keep: (qr) => flows.save({ ...flow, qr }),
      redrawn: () => recordRegistration(deps, flow, 'new_qr_generated'),
      view: {
        purpose: 'register',
        appName: flow.invitation.appName,
        statusUrl: `${base(flow)}/mobile/status`,
        continueUrl: `${base(flow)}/mobile/next`,
      },
      noStore: true,
    });
  }

  function mount(router: Router): void {
    router.post(
      '/registration/:registrationId/mobile',
      form,
      withRegistration(
        deps,
        flows,
        async (_req, res, { flow }) => {
          if (flow.step === 'passkey' && !flow.qr) {
            await flows.save({ ...flow, qr: {} });
            await recordRegistration(deps, flow, 'new_qr_generated');
          }
          res.redirect(303, base(flow));
        },
        { csrf: true },
      ),
    );

    // Polled by the QR page (flow-wait.js): "ready" once the phone finished, or the QR's time passed unopened.
    router.get(
      '/registration/:registrationId/mobile/status',
      qrStatusHandler(deps, flows, { qrOf: (flow) => flow.qr, over: (flow) => flow.step === 'complete' }),
    );

    router.get(
      '/registration/:registrationId/mobile/next',
      withRegistration(
        deps,
        flows,
        async (_req, res, { flow }) => {
          if (flow.step === 'complete') return res.redirect(303, `${base(flow)}/complete`);
          // Unopened in time: back to the passkey step, where the person may create it here or try again.
          if (timedOut(deps.now(), flow)) await flows.save({ ...flow, qr: undefined });
          res.redirect(303, base(flow));
        },
        { csrf: false },
      ),
    );

    router.get('/register/m/:token', (req, res, next) => {
      const locale = negotiateLocale([], req.get('accept-language'));
      bindPhone(deps, req, res, {
        links,
        load: (id) => flows.get(id),
        // The phone only adds the passkey: its link opens at the passkey step, after any phone verification.
        accepts: (flow) => flow.step === 'passkey',
        save: (flow) => flows.save(flow),
        refuse: () => sendLinkInvalid(deps, req, res, locale),
        opened: async (flow) => {
          await recordRegistration(deps, flow, 'user_scan_qr');
          res.redirect(303, `${base(flow)}/phone`);
        },
      }).catch(next);
    });

    router.get(
      '/registration/:registrationId/phone',
      onPhone(
        async (req, res, flow) => {
          if (flow.step === 'complete') return res.redirect(303, `${base(flow)}/phone/complete`);
          const session = await deps.sessions.ensure(req, res);
          const view = registerPasskeyView(flow, session.csrf, `${base(flow)}/phone`, false);
          sendPage(deps, res, 'register-passkey', flow.locale, view);
        },
        { csrf: false },
      ),
    );

    router.post(
      '/registration/:registrationId/phone/passkey/create-options',
      json,
      onPhone((_req, res, flow) => sendPasskeyOptions(deps, res, flow, ceremonyKey(flow)), { csrf: true }),
    );

    router.post(
      '/registration/:registrationId/phone/passkey/create',
      json,
      onPhone(
        async (req, res, flow) => {
          if (flow.step !== 'passkey') return void res.status(409).json({ error: 'noOffer' });
          const response = webAuthnResponse<RegistrationResponseJSON>(req);
          const device = flow.qr?.phoneDevice;
          if (!response || !device) return void res.status(400).json({ error: 'invalidResponse' });
          const created = await finishPasskeyCreation(deps, req, res, {
            ceremonyKey: ceremonyKey(flow),
            userId: flow.userId,
            device,
            response,
            flowId: flow.id,
            what: 'phone registration passkey',
          });
          if (!created) return;
          if (!created.known)
            await recordRegistration(deps, flow, 'new_device_registered', {
              authMethodType: 'fido2',
            });
          await finishRegistration(deps, flows, flow, created.passkey.credentialId, device);
          res.json({ location: `${base(flow)}/phone/complete` });
        },
        { csrf: true },
      ),
    );

    router.get(
      '/registration/:registrationId/phone/complete',
      onPhone(
        async (_req, res, flow) => {
          if (flow.step !== 'complete') return res.redirect(303, `${base(flow)}/phone`);
          sendRegistrationComplete(deps, res, { ...flow, phoneSide: true });
        },
        { csrf: false },
      ),
    );
  }

  return { mount, showQr };
}
