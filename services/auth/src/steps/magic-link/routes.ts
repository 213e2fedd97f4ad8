import type { Request, Response, Router } from 'express';
import { withBrandOf } from '../../branding/with-brand';
import { mailRequester } from '../../email/send-requester';
import type { Flow } from '../../flow/flow';
import { withFlow } from '../../flow/flow-guard';
import { NUMBER_MISMATCH_ENDING, checkPick, newNumberMatch } from '../../flow/number-match';
import type { Locale } from '../../i18n';
import type { RememberedFlow } from '../../signin/flow-events';
import { proveEmail } from '../../signin/prove';
import { form } from '../../web/body-parsers';
import type { HostedDeps } from '../../web/deps';
import { proofSource, rpFormTarget, sendErrorPage, sendLinkInvalid, sendPage } from '../../web/respond';

import { sendSignInMail } from '../email-code/mail';
import { emailCodeView } from '../email-code/view';
import { recordMismatch, takePick } from '../number-match/pick';
import { numberMatchView } from '../number-match/view';
import { linkConfirmView } from './view';

/**
 * A magic link instead of the code: the mail carries `{auth_url}/link/<token>`; opening it shows a page with a
 * Confirm sign-in button (a POST, so mail scanners that follow links spend nothing); confirming proves the
 * email for the flow that asked, and the tab that started it continues by itself.
 *
 * Opened in another browser than the one that started the flow, the page is the number match instead
 * (steps/number-match): where and when the sign-in started, and three numbers, of which the person picks the
 * one the waiting tab shows. One pick per flow; a wrong one ends the flow for both (the waiting tab ends at the
 * RP with access_denied). Opened in the very browser session that started it, no number is asked.
 */
export function mountMagicLinkSteps(router: Router, deps: HostedDeps): void {
  router.post(
    '/flow/:flowId/magic-link',
    form,
    withFlow(
      deps,
      async (req, res, { flow, session }) => {
        if (!flow.email) return res.redirect(303, `/flow/${flow.id}`);
        const refuse = (error: 'rateLimited' | 'mailFailed', status: number) =>
          sendPage(deps, res, 'email-code', flow.locale, emailCodeView(flow, session.csrf, { error }), {
            status,
            formTargets: rpFormTarget(flow),
          });
        const requester = await mailRequester(deps, flow.tenantId, session, flow.email);
        if (!(await deps.sendThrottle.reserve(flow.email, req.ip ?? '', requester)))
          return refuse('rateLimited', 429);
        // What a spent link's page shows (its app's brand) and records once the flow is gone; appName since #37.
        const memo = JSON.stringify({
          tenantId: flow.tenantId,
          appId: flow.appId,
          appName: flow.appName,
          locale: flow.locale,
        });
        const token = await deps.links.issue(flow.id, memo);
        const link = `${deps.authUrl.replace(/\/+$/, '')}/link/${token}`;
        const vars = { email: flow.email, url: link, minutes: deps.linkTtlMinutes };
        if (!(await sendSignInMail(deps, flow, 'link', flow.email, vars))) return refuse('mailFailed', 503);
        await deps.flows.save({
          ...flow,
          step: 'link_sent',
          numberMatch: flow.numberMatch ?? newNumberMatch(),
        });
        res.redirect(303, `/flow/${flow.id}`);
      },
      { csrf: true },
    ),
  );

  /**
   * The brand of a link's app on every page the link leads to (its flow's, else the spent link's memo); an
   * unknown link names no tenant and keeps the neutral design.
   */
  async function brandOfLink(res: Response, token: string): Promise<void> {
    const found = await deps.links.lookup(token);
    if (found.state === 'unknown') return;
    const flow = await deps.flows.get(found.flowId);
    await withBrandOf(deps, res, flow ?? (found.state === 'spent' ? memoOf(found.memo) : undefined));
  }

  /** The link is expired, used or unknown: a clear page, and magic_link_expired when its flow is known. */
  async function spent(req: Request, res: Response, token: string) {
    const found = await deps.links.lookup(token);
    let locale: Locale | undefined;
    if (found.state === 'spent') {
      const memo = memoOf(found.memo);
      locale = memo.locale;
      const flow = await deps.flows.get(found.flowId);
      await withBrandOf(deps, res, flow ?? memo);
      if (flow) await deps.record(flow, 'magic_link_expired', { clientIp: req.ip ?? '' });
      else if (memo.tenantId && memo.appId) {
        const remembered: RememberedFlow = {
          journey: 'remembered',
          id: found.flowId,
          tenantId: memo.tenantId,
          appId: memo.appId,
          clientIp: req.ip ?? '',
          originatingDevice: { deviceId: '', facts: deps.deviceFacts(undefined) },
        };
        await deps.record(remembered, 'magic_link_expired', { clientIp: req.ip ?? '' });
      }
    }
    sendLinkInvalid(deps, req, res, locale);
  }

  /** A wrong number: recorded, and the flow ended for both browsers (its waiting tab ends at the RP). */
  async function endByMismatch(req: Request, res: Response, flow: Flow) {
    await recordMismatch(deps, flow, 'email_verification_failure', req.ip ?? '');
    await deps.flows.save({ ...flow, ended: { ...NUMBER_MISMATCH_ENDING } });
    sendErrorPage(deps, req, res, 403, 'numberMismatch', flow.locale);
  }

  router.get('/link/:token', (req, res, next) => {
    const run = async () => {
      const token = String(req.params.token);
      const found = await deps.links.lookup(token);
      const flow = found.state === 'valid' ? await deps.flows.get(found.flowId) : undefined;
      if (!flow) return spent(req, res, token);
      await withBrandOf(deps, res, flow);
      if (flow.ended) return sendErrorPage(deps, req, res, 410, 'numberMismatch', flow.locale);
      const session = await deps.sessions.ensure(req, res);
      const action = `/link/${token}`;
      if (session.key === flow.sessionKey) {
        return sendPage(
          deps,
          res,
          'magic-link-confirm',
          flow.locale,
          linkConfirmView(flow, action, session.csrf),
          {
            formTargets: rpFormTarget(flow),
          },
        );
      }
      // Another browser: the number match. A flow from before numbers were drawn gets its numbers now.
      const shown = flow.numberMatch ? flow : { ...flow, numberMatch: newNumberMatch() };
      if (shown !== flow && !(await deps.flows.save(shown))) return spent(req, res, token);
      const view = numberMatchView(deps, {
        purpose: 'link',
        started: shown,
        match: shown.numberMatch!,
        email: shown.email,
        action,
        csrf: session.csrf,
      });
      res.set('Cache-Control', 'no-store');
      sendPage(deps, res, 'number-match', flow.locale, view, { formTargets: rpFormTarget(flow) });
    };
    run().catch(next);
  });

  router.post('/link/:token', form, (req, res, next) => {
    const run = async () => {
      const token = String(req.params.token);
      await brandOfLink(res, token);
      const session = await deps.sessions.load(req);
      if (!session || !deps.sessions.csrfMatches(session, (req.body as Record<string, unknown>).csrf)) {
        return sendErrorPage(deps, req, res, 403, 'csrf');
      }
      const found = await deps.links.lookup(token);
      const before = found.state === 'valid' ? await deps.flows.get(found.flowId) : undefined;
      if (before?.ended) return sendErrorPage(deps, req, res, 410, 'numberMismatch', before.locale);
      const picked = (req.body as Record<string, unknown>).choice;
      const elsewhere = !!before && session.key !== before.sessionKey;
      // Another browser must pick one of the three numbers: anything else is bad input, and keeps the link.
      if (elsewhere && (!before.numberMatch || checkPick(before.numberMatch, picked) === 'invalid')) {
        return sendErrorPage(deps, req, res, 400, 'numberMissing', before.locale);
      }
      const flowId = await deps.links.consume(token);
      const flow = flowId ? await deps.flows.get(flowId) : undefined;
      if (!flow?.email) return spent(req, res, token);
      if (session.key !== flow.sessionKey) {
        const pick = await takePick(deps, flow, picked);
        if (pick === 'invalid') return sendErrorPage(deps, req, res, 400, 'numberMissing', flow.locale);
        if (pick === 'replayed') return sendErrorPage(deps, req, res, 409, 'numberPicked', flow.locale);
        if (pick === 'wrong') return endByMismatch(req, res, flow);
      }
      await proveEmail(deps, flow, {
        method: 'email_magic_link',
        email: flow.email,
        ...proofSource(deps, req, res),
      });
      if (session.key === flow.sessionKey) return res.redirect(303, `/flow/${flow.id}/continue`);
      sendPage(deps, res, 'magic-link-done', flow.locale, {});
    };
    run().catch(next);
  });
}

/** A magic link's memo: its tenant, app and locale (appName only in links issued since issue 37). */
interface LinkMemo {
  tenantId?: string;
  appId?: string;
  appName?: string;
  locale?: Locale;
}
const memoOf = (memo: string): LinkMemo => JSON.parse(memo || '{}') as LinkMemo;
