import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { flowStatusHandler } from '../../flow/flow-status';
import { negotiateLocale } from '../../i18n';
import { PasskeyError } from '../../passkeys';
import type { RegistrationResponseJSON } from '../../passkeys/ceremonies';
import type { BrowserSession } from '../../session/browser-session';
import { MobileLinks, sameLink } from '../../steps/qr/links';
import { qrSvg } from '../../steps/qr/qr-image';
import { sendErrorPage, sendPage, thisDevice } from '../../web/respond';
import {
  type RegistrationDeps,
  type RegistrationFlow,
  type RegistrationFlows,
  asSignInFlow,
  recordRegistration,
  sendRegistrationComplete,
  withRegistration,
} from './flow';
import { finishRegistration } from './passkey';

const json = express.json({ limit: '32kb' });
const form = express.urlencoded({ extended: false, limit: '8kb' });
const responseSchema = z
  .object({ id: z.string().min(1).max(1400), response: z.object({}).passthrough() })
  .passthrough();
const base = (flow: RegistrationFlow) => `/registration/${flow.id}`;
/** The phone's ceremony challenge, apart from any the desktop tab may ask for. */
const ceremonyKey = (flow: RegistrationFlow) => `${flow.id}:phone`;
const timedOut = (now: number, flow: RegistrationFlow) =>
  !!flow.qr?.openBy && !flow.qr.openedAt && now >= flow.qr.openBy;

type PhoneHandler = (req: Request, res: Response, flow: RegistrationFlow) => Promise<void>;

/**
 * Desktop to mobile for a registration by link: **Use my phone** on the passkey step shows the QR of a one-time
 * link (`/register/m/<token>`, MobileLinks in its own keyspace); the phone opens it once and in time, creates
 * the passkey on its own device (the same ceremony and finish as registration-passkey.ts) and its completion
 * page shows the invitation's secondaryCompletionMessage (phoneSide); the desktop tab then shows the normal
 * completion page. A QR left unopened past its time sends the desktop back to the passkey step.
 *
 * When the invitation asks for a verified phone, that happens on the desktop before any QR: Use my phone is
 * only offered at the passkey step, which follows the phone step (registration-phone-number.ts), and the
 * phone's link opens only at `passkey`. The desktop is the browser the emailed link was taken in, so one
 * place owns every verification; the phone only adds its passkey, and the SMS still reaches the phone.
 */
export function registrationPhone(deps: RegistrationDeps, flows: RegistrationFlows) {
  const links = new MobileLinks(deps.kv, {
    ttlMs: deps.qrOpenTimeoutMs,
    memoryMs: deps.flowTtlMs,
    prefix: 'register-mobile-link',
  });

  /** Only the phone that opened this registration's QR (its own session); on POST its CSRF token. */
  const onPhone =
    (handler: PhoneHandler, opts: { csrf: boolean }) => (req: Request, res: Response, next: NextFunction) => {
      const run = async () => {
        const flow = await flows.get(String(req.params.registrationId));
        if (!flow) return sendErrorPage(deps, req, res, 410, 'flowExpired');
        const session = await deps.sessions.load(req);
        if (!session || !flow.qr?.phoneSessionKey || session.key !== flow.qr.phoneSessionKey)
          return sendErrorPage(deps, req, res, 403, 'sessionMismatch', flow.locale);
        if (opts.csrf && !deps.sessions.csrfMatches(session, (req.body as Record<string, unknown>)?.csrf))
          return sendErrorPage(deps, req, res, 403, 'csrf', flow.locale);
        await handler(req, res.set('Cache-Control', 'no-store'), flow);
      };
      run().catch(next);
    };

  /** The QR page; each showing draws a new link (only its hash is kept), once opened only the wait. */
  async function showQr(
    _req: Request,
    res: Response,
    { flow, session }: { flow: RegistrationFlow; session: BrowserSession },
  ): Promise<void> {
    if (timedOut(deps.now(), flow)) return res.redirect(303, `${base(flow)}/mobile/next`);
    let linkPath = '';
    if (!flow.qr?.openedAt) {
      const { token, linkHash } = await links.issue(flow.id);
      linkPath = `/register/m/${token}`;
      await flows.save({ ...flow, qr: { linkHash, openBy: deps.now() + deps.qrOpenTimeoutMs } });
      if (flow.qr?.linkHash) await recordRegistration(deps, asSignInFlow(flow), 'new_qr_generated');
    }
    const linkText = `${deps.authUrl.replace(/\/+$/, '')}${linkPath}`;
    sendPage(deps, res.set('Cache-Control', 'no-store'), 'mobile-qr', flow.locale, {
      purpose: 'register',
      appName: flow.invitation.appName,
      qrSvg: linkPath ? await qrSvg(linkText) : '',
      linkPath: linkPath || base(flow),
      linkText,
      seconds: Math.round(deps.qrOpenTimeoutMs / 1000),
      csrf: session.csrf,
      statusUrl: `${base(flow)}/mobile/status`,
      continueUrl: `${base(flow)}/mobile/next`,
      expiresAt: flow.expiresAt,
      opened: Boolean(flow.qr?.openedAt),
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
            await recordRegistration(deps, asSignInFlow(flow), 'new_qr_generated');
          }
          res.redirect(303, base(flow));
        },
        { csrf: true },
      ),
    );

    // Polled by the QR page (flow-wait.js): "ready" once the phone finished, or the QR's time passed unopened.
    router.get(
      '/registration/:registrationId/mobile/status',
      flowStatusHandler(
        deps.sessions,
        { load: (id) => flows.get(id), watch: (id, listener) => flows.watch(id, listener) },
        (flow) => flow.step === 'complete' || timedOut(deps.now(), flow),
        { readyBy: (flow) => (flow.qr?.openedAt ? undefined : flow.qr?.openBy), now: deps.now },
      ),
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
      const run = async () => {
        res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
        const locale = negotiateLocale([], req.get('accept-language'));
        const refuse = () => sendPage(deps, res, 'link-invalid', locale, {}, { status: 410 });
        const taken = await links.take(String(req.params.token));
        if (taken.state !== 'taken') return refuse();
        const flow = await flows.get(taken.flowId);
        const qr = flow?.qr;
        if (!flow || !qr || flow.step !== 'passkey' || qr.openedAt) return refuse();
        if (!sameLink(qr.linkHash, taken.linkHash) || deps.now() >= (qr.openBy ?? 0)) return refuse();
        const session = await deps.sessions.ensure(req, res);
        const opened = {
          ...qr,
          openedAt: deps.now(),
          phoneSessionKey: session.key,
          phoneDevice: thisDevice(deps, req, res),
        };
        if (!(await flows.save({ ...flow, qr: opened }))) return refuse();
        await recordRegistration(deps, asSignInFlow(flow), 'user_scan_qr');
        res.redirect(303, `${base(flow)}/phone`);
      };
      run().catch(next);
    });

    router.get(
      '/registration/:registrationId/phone',
      onPhone(
        async (req, res, flow) => {
          if (flow.step === 'complete') return res.redirect(303, `${base(flow)}/phone/complete`);
          const session = await deps.sessions.ensure(req, res);
          const inv = flow.invitation;
          sendPage(deps, res, 'register-passkey', flow.locale, {
            appName: inv.appName,
            email: inv.email,
            ...(inv.customMessage ? { customMessage: inv.customMessage } : {}),
            csrf: session.csrf,
            optionsUrl: `${base(flow)}/phone/passkey/create-options`,
            verifyUrl: `${base(flow)}/phone/passkey/create`,
          });
        },
        { csrf: false },
      ),
    );

    router.post(
      '/registration/:registrationId/phone/passkey/create-options',
      json,
      onPhone(
        async (_req, res, flow) => {
          if (flow.step !== 'passkey') return void res.status(409).json({ error: 'noOffer' });
          const user = { userId: flow.userId, email: flow.invitation.email };
          res.json(await deps.ceremonies.registrationOptions(ceremonyKey(flow), user));
        },
        { csrf: true },
      ),
    );

    router.post(
      '/registration/:registrationId/phone/passkey/create',
      json,
      onPhone(
        async (req, res, flow) => {
          if (flow.step !== 'passkey') return void res.status(409).json({ error: 'noOffer' });
          const parsed = responseSchema.safeParse((req.body as Record<string, unknown>)?.response);
          const device = flow.qr?.phoneDevice;
          if (!parsed.success || !device) return void res.status(400).json({ error: 'invalidResponse' });
          const known = await deps.users.devices.get(flow.userId, device.deviceId);
          let credentialId: string;
          try {
            const response = parsed.data as unknown as RegistrationResponseJSON;
            credentialId = (await deps.ceremonies.register(ceremonyKey(flow), device.deviceId, response))
              .credentialId;
          } catch (err) {
            if (!(err instanceof PasskeyError)) throw err;
            req.log.info({ reason: err.reason, flowId: flow.id }, 'phone registration passkey refused');
            return void res.status(400).json({ error: err.reason === 'noChallenge' ? 'expired' : 'refused' });
          }
          if (!known)
            await recordRegistration(deps, asSignInFlow(flow), 'new_device_registered', {
              authMethodType: 'fido2',
            });
          await finishRegistration(deps, flows, flow, credentialId, device);
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
