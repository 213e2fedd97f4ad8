import express, { type Request, type Response, type Router } from 'express';
import { withFlow } from '../../flow/flow-guard';
import type { Locale } from '../../i18n';
import type { RememberedFlow } from '../../signin/flow-events';
import { proveEmail } from '../../signin/prove';
import type { HostedDeps } from '../../web/deps';
import { rpFormTarget, sendErrorPage, sendLinkInvalid, sendPage, thisDevice } from '../../web/respond';
import { sendSignInMail } from '../email-code/mail';
import { emailCodeView } from '../email-code/view';
import { linkConfirmView } from './view';

const form = express.urlencoded({ extended: false, limit: '8kb' });

/**
 * A magic link instead of the code: the mail carries `{auth_url}/link/<token>`; opening it shows a page with a
 * Confirm sign-in button (a POST, so mail scanners that follow links spend nothing); confirming proves the
 * email for the flow that asked, and the tab that started it continues by itself.
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
        if (!(await deps.sendThrottle.reserve(flow.email, req.ip ?? ''))) return refuse('rateLimited', 429);
        const memo = JSON.stringify({ tenantId: flow.tenantId, appId: flow.appId, locale: flow.locale });
        const token = await deps.links.issue(flow.id, memo);
        const link = `${deps.authUrl.replace(/\/+$/, '')}/link/${token}`;
        const vars = { email: flow.email, url: link, minutes: deps.linkTtlMinutes };
        if (!(await sendSignInMail(deps, flow, 'link', flow.email, vars))) return refuse('mailFailed', 503);
        await deps.flows.save({ ...flow, step: 'link_sent' });
        res.redirect(303, `/flow/${flow.id}`);
      },
      { csrf: true },
    ),
  );

  /** The link is expired, used or unknown: a clear page, and magic_link_expired when its flow is known. */
  async function spent(req: Request, res: Response, token: string) {
    const found = await deps.links.lookup(token);
    let locale: Locale | undefined;
    if (found.state === 'spent') {
      const memo = JSON.parse(found.memo || '{}') as { tenantId?: string; appId?: string; locale?: Locale };
      locale = memo.locale;
      const flow = await deps.flows.get(found.flowId);
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

  router.get('/link/:token', (req, res, next) => {
    const run = async () => {
      const token = String(req.params.token);
      const found = await deps.links.lookup(token);
      const flow = found.state === 'valid' ? await deps.flows.get(found.flowId) : undefined;
      if (!flow) return spent(req, res, token);
      const session = await deps.sessions.ensure(req, res);
      sendPage(
        deps,
        res,
        'magic-link-confirm',
        flow.locale,
        linkConfirmView(flow, `/link/${token}`, session.csrf),
        { formTargets: rpFormTarget(flow) },
      );
    };
    run().catch(next);
  });

  router.post('/link/:token', form, (req, res, next) => {
    const run = async () => {
      const token = String(req.params.token);
      const session = await deps.sessions.load(req);
      if (!session || !deps.sessions.csrfMatches(session, (req.body as Record<string, unknown>).csrf)) {
        return sendErrorPage(deps, req, res, 403, 'csrf');
      }
      const flowId = await deps.links.consume(token);
      const flow = flowId ? await deps.flows.get(flowId) : undefined;
      if (!flow?.email) return spent(req, res, token);
      const device = thisDevice(deps, req, res);
      await proveEmail(deps, flow, {
        method: 'email_magic_link',
        email: flow.email,
        device,
        clientIp: req.ip ?? '',
      });
      if (session.key === flow.sessionKey) return res.redirect(303, `/flow/${flow.id}/continue`);
      sendPage(deps, res, 'magic-link-done', flow.locale, {});
    };
    run().catch(next);
  });
}
