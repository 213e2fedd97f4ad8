import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { type FlowContext, withFlow } from '../../flow/flow-guard';
import { proveEmail } from '../../signin/prove';
import { typedPerson } from '../../users/typed-person';
import { form } from '../../web/body-parsers';
import type { HostedDeps } from '../../web/deps';
import { proofSource, rpFormTarget, sendPage } from '../../web/respond';
import { identifyView } from '../identify/view';
import { sendEmailCode } from './send';
import { emailCodeView, resendWaitSeconds } from './view';

const emailSchema = z.string().trim().toLowerCase().max(254).email();

/**
 * What the journey may do with a typed address instead of mailing a code: true when it answered (the
 * sign-in shows the QR when this desktop holds none of the person's passkeys, journeys/sign-in/qr-instead.ts).
 */
export type InsteadOfCode = (
  req: Request,
  res: Response,
  ctx: FlowContext,
  email: string,
) => Promise<boolean>;

/** Identify by email, then the one-time code, or a magic link instead (issue: hosted sign-in). */
export function mountEmailSteps(
  router: Router,
  deps: HostedDeps,
  opts: { instead?: InsteadOfCode } = {},
): void {
  const post = (path: string, handler: (req: Request, res: Response, ctx: FlowContext) => Promise<void>) =>
    router.post(`/flow/:flowId/${path}`, form, withFlow(deps, handler, { csrf: true }));

  const sendCode = (req: Request, res: Response, ctx: FlowContext, email: string) =>
    sendEmailCode(deps, req, res, ctx, email);

  post('email', async (req, res, ctx) => {
    const input = (req.body as Record<string, unknown>).email;
    const parsed = emailSchema.safeParse(input);
    if (!parsed.success) {
      // The refused address stays in the field to be corrected (as typed, within an address's length).
      const kept = typeof input === 'string' ? input.trim().slice(0, 320) : undefined;
      const view = identifyView(
        { ...ctx.flow, email: kept ?? ctx.flow.email },
        ctx.session.csrf,
        'invalidEmail',
        req.get('sec-ch-ua-mobile'),
      );
      return sendPage(deps, res, 'identify', ctx.flow.locale, view, { status: 400 });
    }
    // Whom the address names, for the flow's record only: the page is the same for an unknown address.
    const typedUserId = await typedPerson(deps.users, ctx.flow.tenantId, parsed.data);
    const typed = { ...ctx, flow: { ...ctx.flow, typedUserId } };
    // The typed address goes on the flow's record now: a person who never gets further is still found by it.
    await deps.record({ ...typed.flow, email: parsed.data }, 'desktop_login_page', {
      details: { page: 'email_code' },
    });
    if (await opts.instead?.(req, res, typed, parsed.data)) return;
    if (!(await sendCode(req, res, typed, parsed.data))) return;
    // The page script says whether this browser can create a passkey (offered after the code).
    const canCreatePasskey = (req.body as Record<string, unknown>).passkeyCapable === '1';
    await deps.flows.save({ ...typed.flow, email: parsed.data, step: 'email_code', canCreatePasskey });
    res.redirect(303, `/flow/${ctx.flow.id}`);
  });

  post('resend', async (req, res, ctx) => {
    if (!ctx.flow.email) return res.redirect(303, `/flow/${ctx.flow.id}`);
    // Within the wait the limits set, the code page again with the timer (not the identify page).
    const wait = await resendWaitSeconds(deps, ctx.flow, req.ip ?? '', ctx.session);
    if (wait > 0) {
      const view = emailCodeView(ctx.flow, ctx.session.csrf, {
        error: 'rateLimited',
        resendWaitSeconds: wait,
      });
      return sendPage(deps, res, 'email-code', ctx.flow.locale, view, {
        status: 429,
        formTargets: rpFormTarget(ctx.flow),
      });
    }
    if (!(await sendCode(req, res, ctx, ctx.flow.email))) return;
    sendPage(
      deps,
      res,
      'email-code',
      ctx.flow.locale,
      emailCodeView(ctx.flow, ctx.session.csrf, {
        resent: true,
        resendWaitSeconds: await resendWaitSeconds(deps, ctx.flow, req.ip ?? '', ctx.session),
      }),
      { formTargets: rpFormTarget(ctx.flow) },
    );
  });

  // "Use a different email address": the identify page again; nothing changes until a new address is sent.
  router.get(
    '/flow/:flowId/change-email',
    withFlow(
      deps,
      async (req, res, { flow, session }) => {
        const view = identifyView(flow, session.csrf, undefined, req.get('sec-ch-ua-mobile'));
        sendPage(deps, res, 'identify', flow.locale, view);
      },
      { csrf: false },
    ),
  );

  post('code', async (req, res, ctx) => {
    const { flow, session } = ctx;
    // The code already proved this flow (the form sent twice: a click as the page submitted itself): go on.
    if (flow.proof && flow.proof.method === 'email_otp')
      return res.redirect(303, `/flow/${flow.id}/continue`);
    const typed = String((req.body as Record<string, unknown>).code ?? '').replace(/\s/g, '');
    const check = await deps.codes.check(flow.id, typed);
    if (check.result === 'ok' && check.email === flow.email) {
      await proveEmail(deps, flow, {
        method: 'email_otp',
        email: check.email,
        ...proofSource(deps, req, res),
      });
      return res.redirect(303, `/flow/${flow.id}/continue`);
    }
    const dead = check.result !== 'wrong';
    // A code killed by its wrong tries is "too many attempts" (even for the right code typed after), not expired.
    const locked = dead && (await deps.codes.lockedOut(flow.id));
    // A dead code fails the flow (status failure, auth_failure) until a new code or a link proves the email,
    // whose auth_complete then records success; a wrong try that leaves attempts only says why it failed.
    await deps.record(flow, 'email_verification_failure', {
      failureReason: dead ? 'email code expired or tried too often' : 'wrong email code',
      authMethodType: 'email_otp',
      ...(dead ? { status: 'failure', errorCode: 'auth_failure' } : {}),
    });
    const view = emailCodeView(flow, session.csrf, {
      error: locked
        ? 'tooManyAttempts'
        : dead
          ? 'codeExpired'
          : /^\d{6}$/.test(typed)
            ? 'wrongCode'
            : 'invalidFormat',
      attemptsLeft: check.result === 'wrong' ? check.attemptsLeft : undefined,
      resendWaitSeconds: dead ? await resendWaitSeconds(deps, flow, req.ip ?? '', session) : undefined,
    });
    sendPage(deps, res, 'email-code', flow.locale, view, { status: 400, formTargets: rpFormTarget(flow) });
  });
}
