import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { negotiateLocale } from '../../i18n';
import { PasskeyError } from '../../passkeys';
import type { RegistrationResponseJSON } from '../../passkeys/ceremonies';
import { sameLink } from '../../steps/qr/links';
import { sendErrorPage, sendPage, thisDevice } from '../../web/respond';
import { type EnrollmentDeps, recordEnrollment } from './deps';
import type { EnrollmentFlow } from './flows';

const json = express.json({ limit: '32kb' });
const form = express.urlencoded({ extended: false, limit: '8kb' });
/** Just the shape: @simplewebauthn/server checks every field of the response itself. */
const responseSchema = z
  .object({ id: z.string().min(1).max(1400), response: z.object({}).passthrough() })
  .passthrough();
const phonePath = (flowId: string) => `/enroll/flow/${flowId}/phone`;
/** The phone's last page: nothing of the enrollment is in its path. */
const DONE_PATH = '/enroll/phone/done';
/** The ceremony's challenge of the phone, apart from any the desktop tab may ask for. */
const ceremonyKey = (flow: EnrollmentFlow) => `${flow.id}:phone`;

type Handler = (req: Request, res: Response, flow: EnrollmentFlow) => Promise<void>;

/** Only the phone that opened this enrollment's QR (its own browser session), and on POST its CSRF token. */
function onPhone(deps: EnrollmentDeps, handler: Handler, opts: { csrf: boolean }) {
  return (req: Request, res: Response, next: NextFunction) => {
    const run = async () => {
      const flow = await deps.enrollmentFlows.get(String(req.params.flowId));
      if (!flow || flow.qr?.done || flow.qr?.ended)
        return sendErrorPage(deps, req, res, 410, 'enrollLinkInvalid');
      const session = await deps.sessions.load(req);
      if (!session || !flow.qr?.phoneSessionKey || session.key !== flow.qr.phoneSessionKey)
        return sendErrorPage(deps, req, res, 403, 'sessionMismatch', flow.locale);
      if (opts.csrf && !deps.sessions.csrfMatches(session, (req.body as Record<string, unknown>)?.csrf))
        return sendErrorPage(deps, req, res, 403, 'csrf', flow.locale);
      await handler(req, res.set('Cache-Control', 'no-store'), flow);
    };
    run().catch(next);
  };
}

/**
 * Desktop to mobile for an enrollment, the phone's side. Opening the QR's link (within its open time, once,
 * and only the link the desktop shows now) binds the phone's own browser session and device to the
 * enrollment; the phone then creates a passkey for the enrollment's user with the same ceremony as
 * enrollment-passkey.ts, on its own device, and the desktop tab ends at the RP.
 */
export function mountEnrollmentPhoneSide(router: Router, deps: EnrollmentDeps): void {
  const refuse = (req: Request, res: Response, flow?: EnrollmentFlow) =>
    sendPage(
      deps,
      res,
      'link-invalid',
      flow?.locale ?? negotiateLocale([], req.get('accept-language')),
      {},
      { status: 410 },
    );

  router.get(DONE_PATH, (req, res) => {
    sendPage(deps, res, 'mobile-done', negotiateLocale([], req.get('accept-language')), {});
  });

  router.get('/enroll/m/:token', (req, res, next) => {
    const run = async () => {
      res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
      const taken = await deps.enrollmentMobileLinks.take(String(req.params.token));
      if (taken.state !== 'taken') return refuse(req, res);
      const flow = await deps.enrollmentFlows.get(taken.flowId);
      const qr = flow?.qr;
      const usable =
        !!qr && !qr.openedAt && sameLink(qr.linkHash, taken.linkHash) && deps.now() < (qr.openBy ?? 0);
      if (!flow || !qr || !usable) return refuse(req, res, flow);
      const session = await deps.sessions.ensure(req, res);
      const opened = {
        ...qr,
        openedAt: deps.now(),
        phoneSessionKey: session.key,
        phoneDevice: thisDevice(deps, req, res),
      };
      if (!(await deps.enrollmentFlows.save({ ...flow, qr: opened }))) return refuse(req, res, flow);
      await recordEnrollment(deps, flow, 'user_scan_qr');
      res.redirect(303, `${phonePath(flow.id)}/enroll`);
    };
    run().catch(next);
  });

  router.get(
    '/enroll/flow/:flowId/phone/enroll',
    onPhone(
      deps,
      async (req, res, flow) => {
        const session = await deps.sessions.ensure(req, res);
        const user = await deps.users.users.get(flow.userId);
        sendPage(deps, res, 'enroll-passkey', flow.locale, {
          appName: flow.appName,
          ...(user?.email ? { email: user.email } : {}),
          csrf: session.csrf,
          optionsUrl: `${phonePath(flow.id)}/passkey/create-options`,
          verifyUrl: `${phonePath(flow.id)}/passkey/create`,
          cancelAction: `${phonePath(flow.id)}/cancel`,
        });
      },
      { csrf: false },
    ),
  );

  router.post(
    '/enroll/flow/:flowId/phone/cancel',
    form,
    onPhone(
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
    onPhone(
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
    onPhone(
      deps,
      async (req, res, flow) => {
        const parsed = responseSchema.safeParse((req.body as Record<string, unknown>)?.response);
        if (!parsed.success) return void res.status(400).json({ error: 'invalidResponse' });
        const device = flow.qr?.phoneDevice;
        if (!device) return void res.status(410).json({ error: 'expired' });
        const known = await deps.users.devices.get(flow.userId, device.deviceId);
        const hadOne = (await deps.passkeys.listForUser(flow.userId)).some(
          (p) => p.deviceId === device.deviceId,
        );
        try {
          await deps.ceremonies.register(
            ceremonyKey(flow),
            device.deviceId,
            parsed.data as unknown as RegistrationResponseJSON,
          );
        } catch (err) {
          if (!(err instanceof PasskeyError)) throw err;
          req.log.info({ reason: err.reason, flowId: flow.id }, 'phone enrollment passkey refused');
          return void res.status(400).json({ error: err.reason === 'noChallenge' ? 'expired' : 'refused' });
        }
        await deps.enrollmentFlows.save({ ...flow, qr: { ...flow.qr, done: true } });
        const now = deps.now();
        await deps.users.devices.save({
          userId: flow.userId,
          deviceId: device.deviceId,
          registeredAt: known?.registeredAt ?? now,
          lastSeenAt: now,
          facts: device.facts,
        });
        if (hadOne) await recordEnrollment(deps, flow, 'device_re_register', { authMethodType: 'fido2' });
        else if (!known)
          await recordEnrollment(deps, flow, 'new_device_registered', { authMethodType: 'fido2' });
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
