import express, { type Response, type Router } from 'express';
import { PHONE_ACR } from '../authorize/check-acr-values';
import type { PhoneCodeView, PhoneView } from '../pages';
import type { Invitation } from '../registration/registration-links';
import { type PhoneVerification, checkPhoneCode, phoneNumberOf, sendPhoneCode } from './phone-verification';
import {
  type RegistrationDeps,
  type RegistrationFlow,
  type RegistrationFlows,
  asSignInFlow,
  recordRegistration,
  withRegistration,
} from './registration-flow';
import { sendPage } from './respond';

const form = express.urlencoded({ extended: false, limit: '8kb' });
const base = (flow: RegistrationFlow) => `/registration/${flow.id}`;
const numberPath = (flow: RegistrationFlow) => `${base(flow)}/phone-number`;
const codePath = (flow: RegistrationFlow) => `${base(flow)}/phone-number/code`;

/** The invitation's verifications ask for a verified mobile number (send-activation, spec 4.5). */
export const asksForPhone = (inv: Invitation) => inv.verifications.includes(PHONE_ACR);

/** A registration's phone codes: their own id beside the sign-ins' `phone:<flowId>`, recorded as enrollment. */
const verification = (deps: RegistrationDeps, flow: RegistrationFlow): PhoneVerification => ({
  codeId: `registration-phone:${flow.id}`,
  locale: flow.locale,
  appName: flow.invitation.appName,
  record: (action, facts) => recordRegistration(deps, asSignInFlow(flow), action, facts),
});

/**
 * The registration's phone step (step `phone`, when the invitation's verifications include
 * ts.svc.iac.phone_number): the sign-in's phone and phone-code pages and rules (phone-verification.ts) on
 * the desktop that took the link, after the email and before the passkey step. The number waits on the flow
 * until its code is right; only then is it the user's (verified) and the flow moves to `passkey`. Every
 * other step refuses while the flow is at `phone`, so Not now, a passkey or Use my phone cannot skip it.
 */
export function mountRegistrationPhoneNumber(
  router: Router,
  deps: RegistrationDeps,
  flows: RegistrationFlows,
): void {
  const numberPage = (
    res: Response,
    flow: RegistrationFlow,
    csrf: string,
    phone: string,
    error?: PhoneView['error'],
    status = 200,
  ) => {
    const view = { appName: flow.invitation.appName, action: numberPath(flow), csrf, phone, error };
    sendPage(deps, res, 'phone', flow.locale, view, { status });
  };
  const codePage = (
    res: Response,
    flow: RegistrationFlow,
    csrf: string,
    extra: Partial<PhoneCodeView> = {},
  ) => {
    const view = {
      phone: flow.phone ?? '',
      verifyAction: codePath(flow),
      changePhoneUrl: numberPath(flow),
      csrf,
    };
    sendPage(
      deps,
      res,
      'phone-code',
      flow.locale,
      { ...view, ...extra },
      { status: extra.error ? 400 : 200 },
    );
  };
  /** Past the phone step (or never at it), each of its pages sends the browser to the registration's own. */
  const atPhoneStep = (res: Response, flow: RegistrationFlow) => {
    if (flow.step === 'phone') return true;
    res.redirect(303, base(flow));
    return false;
  };

  router.get(
    '/registration/:registrationId/phone-number',
    withRegistration(
      deps,
      flows,
      async (_req, res, { flow, session }) => {
        if (!atPhoneStep(res, flow)) return;
        const known = (await deps.users.users.get(flow.userId))?.phoneNumber;
        numberPage(res, flow, session.csrf, flow.phone ?? known ?? '');
      },
      { csrf: false },
    ),
  );

  router.post(
    '/registration/:registrationId/phone-number',
    form,
    withRegistration(
      deps,
      flows,
      async (req, res, { flow, session }) => {
        if (!atPhoneStep(res, flow)) return;
        const typed = String((req.body as Record<string, unknown>).phone ?? '').slice(0, 40);
        const number = phoneNumberOf(typed);
        if (!number) return numberPage(res, flow, session.csrf, typed, 'invalidPhone', 400);
        const sent = await sendPhoneCode(deps, verification(deps, flow), number, req.ip ?? '');
        if (sent !== 'sent') {
          return numberPage(res, flow, session.csrf, typed, sent, sent === 'rateLimited' ? 429 : 503);
        }
        await flows.save({ ...flow, phone: number });
        res.redirect(303, codePath(flow));
      },
      { csrf: true },
    ),
  );

  router.get(
    '/registration/:registrationId/phone-number/code',
    withRegistration(
      deps,
      flows,
      async (_req, res, { flow, session }) => {
        if (!atPhoneStep(res, flow)) return;
        if (!flow.phone) return res.redirect(303, numberPath(flow));
        codePage(res, flow, session.csrf);
      },
      { csrf: false },
    ),
  );

  router.post(
    '/registration/:registrationId/phone-number/code',
    form,
    withRegistration(
      deps,
      flows,
      async (req, res, { flow, session }) => {
        if (!atPhoneStep(res, flow)) return;
        if (!flow.phone) return res.redirect(303, numberPath(flow));
        const check = await checkPhoneCode(deps, verification(deps, flow), {
          number: flow.phone,
          userId: flow.userId,
          typed: String((req.body as Record<string, unknown>).code ?? ''),
          ip: req.ip ?? '',
        });
        if (!check.verified) {
          return codePage(res, flow, session.csrf, { error: check.error, attemptsLeft: check.attemptsLeft });
        }
        await flows.save({ ...flow, step: 'passkey' });
        res.redirect(303, base(flow));
      },
      { csrf: true },
    ),
  );
}
