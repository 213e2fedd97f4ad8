import type { Response, Router } from 'express';
import { PHONE_ACR } from '../../authorize/check-acr-values';
import type { PhoneCodeView, PhoneView } from '../../pages';
import {
  type PhoneVerification,
  checkPhoneCode,
  phoneNumberOf,
  resendPhoneCode,
  sendPhoneCode,
} from '../../steps/phone-number/verification';
import { form } from '../../web/body-parsers';
import { sendPage } from '../../web/respond';
import {
  type RegistrationDeps,
  type RegistrationFlow,
  type RegistrationFlows,
  type RegistrationHandler,
  recordRegistration,
  withRegistration,
} from './flow';
import type { Invitation } from './links';

const base = (flow: RegistrationFlow) => `/registration/${flow.id}`;
const numberPath = (flow: RegistrationFlow) => `${base(flow)}/phone-number`;
const codePath = (flow: RegistrationFlow) => `${base(flow)}/phone-number/code`;

/** The invitation's verifications ask for a verified mobile number (send-activation, spec 4.5). */
export const asksForPhone = (inv: Invitation) => inv.verifications.includes(PHONE_ACR);

/** A registration's phone codes: their own id beside the sign-ins' `phone:<flowId>`, recorded as enrollment. */
const verification = (deps: RegistrationDeps, flow: RegistrationFlow): PhoneVerification => ({
  codeId: `registration-phone:${flow.id}`,
  tenantId: flow.invitation.tenantId,
  locale: flow.locale,
  appName: flow.invitation.appName,
  record: (action, facts) => recordRegistration(deps, flow, action, facts),
});

/**
 * The registration's phone step (step `phone`, when the invitation's verifications include
 * ts.svc.iac.phone_number): the sign-in's phone and phone-code pages and rules (steps/phone-number/verification.ts) on
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
    status?: number,
  ) => {
    const view = {
      phone: flow.phone ?? '',
      verifyAction: codePath(flow),
      resendAction: `${codePath(flow)}/resend`,
      changePhoneUrl: numberPath(flow),
      csrf,
    };
    sendPage(
      deps,
      res,
      'phone-code',
      flow.locale,
      { ...view, ...extra },
      { status: status ?? (extra.error ? 400 : 200) },
    );
  };
  /**
   * A route of the phone step: the registration and its session as every registration page checks them
   * (withRegistration); past the phone step (or never at it), the browser goes to the registration's own page.
   */
  const phoneStep = (handler: RegistrationHandler, csrf: boolean) =>
    withRegistration(
      deps,
      flows,
      async (req, res, context) => {
        if (context.flow.step !== 'phone') return void res.redirect(303, base(context.flow));
        await handler(req, res, context);
      },
      { csrf },
    );

  /** A route of the SMS code page: once a number was given (`phone`); before, the browser goes to the number page. */
  const codeStep = (
    handler: (...args: [...Parameters<RegistrationHandler>, phone: string]) => Promise<unknown>,
    csrf: boolean,
  ) =>
    phoneStep(async (req, res, context) => {
      if (!context.flow.phone) return void res.redirect(303, numberPath(context.flow));
      await handler(req, res, context, context.flow.phone);
    }, csrf);

  router.get(
    '/registration/:registrationId/phone-number',
    phoneStep(async (_req, res, { flow, session }) => {
      const known = (await deps.users.users.get(flow.userId))?.phoneNumber;
      numberPage(res, flow, session.csrf, flow.phone ?? known ?? '');
    }, false),
  );

  router.post(
    '/registration/:registrationId/phone-number',
    form,
    phoneStep(async (req, res, { flow, session }) => {
      const typed = String((req.body as Record<string, unknown>).phone ?? '').slice(0, 40);
      const number = phoneNumberOf(typed);
      if (!number) return numberPage(res, flow, session.csrf, typed, 'invalidPhone', 400);
      const sent = await sendPhoneCode(deps, verification(deps, flow), number, req.ip ?? '');
      if (sent !== 'sent') {
        return numberPage(res, flow, session.csrf, typed, sent, sent === 'rateLimited' ? 429 : 503);
      }
      await flows.save({ ...flow, phone: number });
      res.redirect(303, codePath(flow));
    }, true),
  );

  router.get(
    '/registration/:registrationId/phone-number/code',
    codeStep(async (_req, res, { flow, session }) => {
      codePage(res, flow, session.csrf);
    }, false),
  );

  router.post(
    '/registration/:registrationId/phone-number/code',
    form,
    codeStep(async (req, res, { flow, session }, phone) => {
      const check = await checkPhoneCode(deps, verification(deps, flow), {
        number: phone,
        userId: flow.userId,
        typed: String((req.body as Record<string, unknown>).code ?? ''),
        ip: req.ip ?? '',
      });
      if (!check.verified) {
        const { error, attemptsLeft, resendWaitSeconds } = check;
        return codePage(res, flow, session.csrf, { error, attemptsLeft, resendWaitSeconds });
      }
      await flows.save({ ...flow, step: 'passkey' });
      res.redirect(303, base(flow));
    }, true),
  );

  // **Send a new code** on the SMS code page: to the same number, throttled like the first.
  router.post(
    '/registration/:registrationId/phone-number/code/resend',
    form,
    codeStep(async (req, res, { flow, session }, phone) => {
      const sent = await resendPhoneCode(deps, verification(deps, flow), phone, req.ip ?? '');
      codePage(res, flow, session.csrf, sent.view, sent.status);
    }, true),
  );
}
