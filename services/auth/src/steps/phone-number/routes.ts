import type { Request, Response, Router } from 'express';
import { PHONE_ACR } from '../../authorize/check-acr-values';
import type { Flow } from '../../flow/flow';
import { type FlowContext, withFlow } from '../../flow/flow-guard';
import type { PhoneCodeView } from '../../pages';
import type { SignInRequest } from '../../signin/request';
import { form } from '../../web/body-parsers';
import type { HostedDeps } from '../../web/deps';
import { rpFormTarget, sendPage } from '../../web/respond';
import {
  type PhoneVerification,
  checkPhoneCode,
  phoneNumberOf,
  resendPhoneCode,
  sendPhoneCode,
} from './verification';

/** The flow asked for a verified phone (acr ts.svc.iac.phone_number) and has not verified one yet. */
export const needsPhone = (flow: Flow<SignInRequest>) =>
  flow.request.acrValues.includes(PHONE_ACR) && !flow.phone?.verified;

/** The codes of a flow's phone live beside its email code, under their own id (same class, same rules). */
const verification = (flow: Flow<SignInRequest>, deps: HostedDeps): PhoneVerification => ({
  codeId: `phone:${flow.id}`,
  tenantId: flow.tenantId,
  locale: flow.locale,
  appName: flow.appName,
  record: (action, facts) => deps.record(flow, action, facts),
});

/**
 * Phone verification after the email is proven (acr ts.svc.iac.phone_number, spec 2.2): the number, then a
 * 6-digit code by SMS (verification.ts: the email code's rules, sends throttled per number and IP).
 * A right code records the number on the user as verified; the ID token then carries phone_number,
 * phone_number_verified, phone_number_last_update.
 */
export function mountPhoneSteps(router: Router, deps: HostedDeps): void {
  const base = (flow: Flow<SignInRequest>) => `/flow/${flow.id}`;
  const codeView = (flow: Flow<SignInRequest>, csrf: string, extra: Partial<PhoneCodeView> = {}) => ({
    phone: flow.phone?.number ?? '',
    verifyAction: `${base(flow)}/phone-code`,
    resendAction: `${base(flow)}/phone-code/resend`,
    changePhoneUrl: `${base(flow)}/phone`,
    csrf,
    ...extra,
  });
  const phonePage = (
    res: Response,
    { flow, session }: FlowContext,
    phone: string,
    error?: 'invalidPhone' | 'rateLimited' | 'smsFailed',
    status = 200,
  ) =>
    sendPage(
      deps,
      res,
      'phone',
      flow.locale,
      { appName: flow.appName, action: `${base(flow)}/phone`, csrf: session.csrf, phone, error },
      { status },
    );
  const proven =
    (handler: (req: Request, res: Response, ctx: FlowContext) => Promise<void>) =>
    async (req: Request, res: Response, ctx: FlowContext) => {
      if (!ctx.flow.proof || !ctx.flow.request.acrValues.includes(PHONE_ACR))
        return res.redirect(303, base(ctx.flow));
      await handler(req, res, ctx);
    };

  router.get(
    '/flow/:flowId/phone',
    withFlow(
      deps,
      proven(async (_req, res, ctx) => {
        const known = ctx.flow.userId
          ? (await deps.users.users.get(ctx.flow.userId))?.phoneNumber
          : undefined;
        phonePage(res, ctx, ctx.flow.phone?.number ?? known ?? '');
      }),
      { csrf: false },
    ),
  );

  router.post(
    '/flow/:flowId/phone',
    form,
    withFlow(
      deps,
      proven(async (req, res, ctx) => {
        const { flow } = ctx;
        const typed = String((req.body as Record<string, unknown>).phone ?? '').slice(0, 40);
        const number = phoneNumberOf(typed);
        if (!number) return phonePage(res, ctx, typed, 'invalidPhone', 400);
        const sent = await sendPhoneCode(deps, verification(flow, deps), number, req.ip ?? '');
        if (sent !== 'sent') return phonePage(res, ctx, typed, sent, sent === 'rateLimited' ? 429 : 503);
        await deps.flows.save({ ...flow, phone: { number, verified: false } });
        res.redirect(303, `${base(flow)}/phone-code`);
      }),
      { csrf: true },
    ),
  );

  router.get(
    '/flow/:flowId/phone-code',
    withFlow(
      deps,
      proven(async (_req, res, { flow, session }) => {
        if (!flow.phone) return res.redirect(303, `${base(flow)}/phone`);
        // A right code ends at the RP through redirects (continue → redirect_uri): its origin is a form target.
        sendPage(deps, res, 'phone-code', flow.locale, codeView(flow, session.csrf), {
          formTargets: rpFormTarget(flow),
        });
      }),
      { csrf: false },
    ),
  );

  router.post(
    '/flow/:flowId/phone-code',
    form,
    withFlow(
      deps,
      proven(async (req, res, { flow, session }) => {
        if (!flow.phone || !flow.userId) return res.redirect(303, `${base(flow)}/phone`);
        // The code already verified the number (the form sent twice: a click as the page submitted itself): go on.
        if (flow.phone.verified) return res.redirect(303, `${base(flow)}/continue`);
        const check = await checkPhoneCode(deps, verification(flow, deps), {
          number: flow.phone.number,
          userId: flow.userId,
          typed: String((req.body as Record<string, unknown>).code ?? ''),
          ip: req.ip ?? '',
        });
        if (check.verified) {
          await deps.flows.save({ ...flow, phone: { number: flow.phone.number, verified: true } });
          return res.redirect(303, `${base(flow)}/continue`);
        }
        const { error, attemptsLeft, resendWaitSeconds } = check;
        const view = codeView(flow, session.csrf, { error, attemptsLeft, resendWaitSeconds });
        sendPage(deps, res, 'phone-code', flow.locale, view, {
          status: 400,
          formTargets: rpFormTarget(flow),
        });
      }),
      { csrf: true },
    ),
  );

  // **Send a new code** on the SMS code page: to the same number, throttled like the first (verification.ts).
  router.post(
    '/flow/:flowId/phone-code/resend',
    form,
    withFlow(
      deps,
      proven(async (req, res, { flow, session }) => {
        if (!flow.phone || flow.phone.verified) return res.redirect(303, base(flow));
        const { status, view } = await resendPhoneCode(
          deps,
          verification(flow, deps),
          flow.phone.number,
          req.ip ?? '',
        );
        sendPage(deps, res, 'phone-code', flow.locale, codeView(flow, session.csrf, view), {
          status,
          formTargets: rpFormTarget(flow),
        });
      }),
      { csrf: true },
    ),
  );
}
