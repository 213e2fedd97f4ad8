import { OUTAGE_RETRY_AFTER_S, outageOf } from '@sesame/platform';
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import { withBrandOf } from '../../branding/with-brand';
import { negotiateLocale } from '../../i18n';
import { userForVerifiedEmail } from '../../signin/prove';
import { form } from '../../web/body-parsers';
import { sendErrorPage, sendPage, thisDevice } from '../../web/respond';
import { firstUnmet } from './checks';
import {
  type RegistrationDeps,
  type RegistrationFlow,
  RegistrationFlows,
  recordRegistration,
  sendRegistrationComplete,
  withRegistration,
} from './flow';
import { mountRegistrationPasskey } from './passkey';
import { asksForPhone, mountRegistrationPhoneNumber } from './phone-number';
import { registrationPhone } from './qr';
import { registerPasskeyView } from './view';

const TOKEN_PATH = '/register/:token';
const localeOf = (req: Request) => negotiateLocale([], req.get('accept-language'));

/**
 * The registration pages (send-activation, spec 4.5): `GET /register/<token>` shows who invites and Continue;
 * Continue (a POST, so a mail scanner's fetch spends nothing) takes the single-use link, verifies the email,
 * creates the user if new and starts a registration flow bound to this browser; then the mobile number by SMS
 * code when the invitation's verifications ask for it (phone-number.ts); then a passkey (or Not now,
 * or **Use my phone**: the passkey is created on a phone by QR, qr.ts),
 * the binding to the app, and the completion page. A used, expired or unknown link is a page, never a 500.
 */
export function mountRegistrationPages(routes: Router, deps: RegistrationDeps): void {
  const router = express.Router();
  const flows = new RegistrationFlows(deps.kv);
  const phone = registrationPhone(deps, flows);
  /** A used, expired or unknown link: the page in its app's brand while the link still names it. */
  const invalid = async (req: Request, res: Response) => {
    await withBrandOf(deps, res, await deps.registrationLinks.ownerOf(String(req.params.token)));
    sendPage(deps, res, 'register-invalid', localeOf(req), {}, { status: 410 });
  };

  router.get(TOKEN_PATH, async (req, res, next) => {
    try {
      res.set('Cache-Control', 'no-store');
      const invitation = await deps.registrationLinks.lookup(String(req.params.token));
      if (!invitation) return await invalid(req, res);
      await withBrandOf(deps, res, invitation);
      const session = await deps.sessions.ensure(req, res);
      sendPage(deps, res, 'register-start', localeOf(req), {
        appName: invitation.appName,
        email: invitation.email,
        ...(invitation.customMessage ? { customMessage: invitation.customMessage } : {}),
        action: req.path,
        csrf: session.csrf,
      });
    } catch (err) {
      next(err);
    }
  });

  router.post(TOKEN_PATH, form, async (req, res, next) => {
    try {
      const session = await deps.sessions.load(req);
      const csrf = (req.body as Record<string, unknown> | undefined)?.csrf;
      if (!session || !deps.sessions.csrfMatches(session, csrf)) {
        return sendErrorPage(deps, req, res, 403, 'csrf');
      }
      const invitation = await deps.registrationLinks.consume(String(req.params.token));
      if (!invitation) return await invalid(req, res);
      await withBrandOf(deps, res, invitation);
      const at = deps.now();
      const flow: RegistrationFlow = {
        journey: 'registration',
        id: invitation.flowId,
        sessionKey: session.key,
        invitation,
        userId: '',
        step: asksForPhone(invitation) ? 'phone' : 'passkey',
        locale: localeOf(req),
        clientIp: req.ip ?? '',
        originatingDevice: thisDevice(deps, req, res),
        createdAt: at,
        expiresAt: at + deps.flowTtlMs,
      };
      // The link proves the address (email_verified); the user is created on it if new (new_user_registered).
      const recording = { ...deps, record: enrollment(deps) };
      const { user } = await userForVerifiedEmail(recording, flow, invitation.email, at);
      flow.userId = user.userId;
      await recordRegistration(deps, flow, 'email_verification_success', {
        authMethodType: 'email_magic_link',
      });
      if (!(await flows.create(flow))) return await invalid(req, res);
      res.redirect(303, `/registration/${flow.id}`);
    } catch (err) {
      next(err);
    }
  });

  router.get(
    '/registration/:registrationId',
    withRegistration(
      deps,
      flows,
      async (req, res, { flow, session }) => {
        const base = `/registration/${flow.id}`;
        switch (firstUnmet(flow)) {
          case 'phone-verified':
            return void res.redirect(303, `${base}/phone-number`);
          case 'passkey-decided':
            if (flow.qr) return phone.showQr(req, res, { flow, session });
            return sendPage(
              deps,
              res,
              'register-passkey',
              flow.locale,
              registerPasskeyView(flow, session.csrf, base, true),
            );
          case undefined:
            return void res.redirect(303, `${base}/complete`);
        }
      },
      { csrf: false },
    ),
  );

  mountRegistrationPhoneNumber(router, deps, flows);
  mountRegistrationPasskey(router, deps, flows);
  phone.mount(router);

  router.get(
    '/registration/:registrationId/complete',
    withRegistration(
      deps,
      flows,
      async (_req, res, { flow }) => {
        if (firstUnmet(flow)) return void res.redirect(303, `/registration/${flow.id}`);
        sendRegistrationComplete(deps, res, flow);
      },
      { csrf: false },
    ),
  );

  router.use(registrationErrors(deps));
  routes.use(router);
}

/** The sign-in recorder with flowType enrollment, for the steps registration shares with sign-in. */
const enrollment =
  (deps: RegistrationDeps): RegistrationDeps['record'] =>
  (flow, action, facts = {}) =>
    deps.record(flow, action, { flowType: 'enrollment', ...facts });

/** As the hosted sign-in's: an outage is the error page with 503 and Retry-After, anything else a 500 page. */
function registrationErrors(deps: RegistrationDeps): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent || (typeof err?.status === 'number' && err.status < 500)) return next(err);
    const outage = outageOf(err);
    // The link's token is a secret: it never reaches a log.
    const path = req.path.replace(/^\/register\/(m\/)?[^/]+/, '/register/$1[redacted]');
    if (outage) {
      req.log.warn({ err, path }, 'registration page failed: a store or peer is unavailable');
      res.set('Retry-After', String(OUTAGE_RETRY_AFTER_S));
    } else {
      req.log.error({ err, path }, 'registration page failed');
    }
    sendErrorPage(deps, req, res, outage ? 503 : 500, 'generic');
  };
}
