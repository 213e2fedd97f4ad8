import express, { type Request, type Response, type Router } from 'express';
import { PHONE_ACR } from '../authorize/check-acr-values';
import type { Flow } from '../flow/flow';
import { translate } from '../i18n';
import type { PhoneCodeView } from '../pages';
import type { SignInRequest } from '../signin/request';
import type { HostedDeps } from './deps';
import { type FlowContext, withFlow } from './flow-guard';
import { sendPage } from './respond';

const form = express.urlencoded({ extended: false, limit: '8kb' });
const E164 = /^\+[1-9]\d{6,14}$/;

/** The flow asked for a verified phone (acr ts.svc.iac.phone_number) and has not verified one yet. */
export const needsPhone = (flow: Flow<SignInRequest>) =>
  flow.request.acrValues.includes(PHONE_ACR) && !flow.phone?.verified;

/** The codes of a flow's phone live beside its email code, under their own id (same class, same rules). */
const codeId = (flow: Flow<SignInRequest>) => `phone:${flow.id}`;

/**
 * Phone verification after the email is proven (acr ts.svc.iac.phone_number, spec 2.2): the number, then a
 * 6-digit code by SMS with the email code's rules (CSPRNG, HMAC at rest, TTL, single use, dead after the
 * same number of wrong tries, sends throttled per number and IP). A right code records the number on the
 * user as verified; the ID token then carries phone_number, phone_number_verified, phone_number_last_update.
 */
export function mountPhoneSteps(router: Router, deps: HostedDeps): void {
  const base = (flow: Flow<SignInRequest>) => `/flow/${flow.id}`;
  const codeView = (flow: Flow<SignInRequest>, csrf: string, extra: Partial<PhoneCodeView> = {}) => ({
    phone: flow.phone?.number ?? '',
    verifyAction: `${base(flow)}/phone-code`,
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
        const number = typed.replace(/[\s().-]/g, '');
        if (!E164.test(number)) return phonePage(res, ctx, typed, 'invalidPhone', 400);
        if (!(await deps.sendThrottle.reserve(number, req.ip ?? ''))) {
          return phonePage(res, ctx, typed, 'rateLimited', 429);
        }
        const code = await deps.codes.issue(codeId(flow), number);
        const text = translate(flow.locale, 'phone.sms.text', {
          code,
          appName: flow.appName,
          minutes: deps.codeTtlMinutes,
        });
        try {
          if (!deps.sendSms) throw new Error('no SMS sender configured');
          await deps.sendSms({ to: number, text });
        } catch (err) {
          deps.logger.warn({ err, flowId: flow.id }, 'the phone verification code could not be sent');
          await deps.record(flow, 'user_send_sms', { status: 'failure', failureReason: 'SMS not delivered' });
          return phonePage(res, ctx, typed, 'smsFailed', 503);
        }
        await deps.record(flow, 'user_send_sms');
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
        sendPage(deps, res, 'phone-code', flow.locale, codeView(flow, session.csrf));
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
        const typed = String((req.body as Record<string, unknown>).code ?? '').replace(/\s/g, '');
        const check = await deps.codes.check(codeId(flow), typed);
        if (check.result === 'ok' && check.email === flow.phone.number) {
          const at = deps.now();
          await deps.users.users.update(flow.userId, { phoneNumber: flow.phone.number, phoneVerifiedAt: at });
          const next = { ...flow, phone: { number: flow.phone.number, verified: true } };
          await deps.flows.save(next);
          await deps.record(next, 'sms_verification_success', { clientIp: req.ip ?? '' });
          return res.redirect(303, `${base(flow)}/continue`);
        }
        const dead = check.result !== 'wrong';
        await deps.record(flow, 'sms_verification_failure', {
          failureReason: dead ? 'SMS code expired or tried too often' : 'wrong SMS code',
        });
        const view = codeView(flow, session.csrf, {
          error: dead ? 'codeExpired' : /^\d{6}$/.test(typed) ? 'wrongCode' : 'invalidFormat',
          attemptsLeft: check.result === 'wrong' ? check.attemptsLeft : undefined,
        });
        sendPage(deps, res, 'phone-code', flow.locale, view, { status: 400 });
      }),
      { csrf: true },
    ),
  );
}
