import express, { type Request, type Response, type Router } from 'express';
import type { Flow } from '../flow/flow';
import type { SignInRequest } from '../signin/request';
import { proveEmail } from '../signin/sign-in';
import type { HostedDeps } from './deps';
import { withFlow } from './flow-guard';
import { sendErrorPage, sendPage } from './respond';
import { emailCodeView, linkConfirmView } from './views';

const form = express.urlencoded({ extended: false, limit: '8kb' });
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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
        const refuse = (error: string, status: number) =>
          sendPage(deps, res, 'email-code', flow.locale, emailCodeView(flow, session.csrf, { error }), {
            status,
          });
        if (!(await deps.sendThrottle.reserve(flow.email, req.ip ?? '')))
          return refuse('too_many_mails', 429);
        const memo = JSON.stringify({ tenantId: flow.tenantId, appId: flow.appId, locale: flow.locale });
        const token = await deps.links.issue(flow.id, memo);
        const link = `${deps.authUrl.replace(/\/+$/, '')}/link/${token}`;
        const t = (key: string) => deps.translate(flow.locale, key, { appName: flow.appName, link });
        try {
          const html = `<p>${escapeHtml(t('mail.link.text'))}</p><p><a href="${escapeHtml(link)}">${escapeHtml(t('mail.link.action'))}</a></p>`;
          await deps.sendMail({
            to: flow.email,
            subject: t('mail.link.subject'),
            text: `${t('mail.link.text')}\n\n${link}`,
            html,
          });
        } catch (err) {
          req.log.warn({ err, flowId: flow.id }, 'magic link not sent');
          return refuse('mail_failed', 503);
        }
        await deps.flows.save({ ...flow, step: 'link_sent' });
        res.redirect(303, `/flow/${flow.id}`);
      },
      { csrf: true },
    ),
  );

  /** The link is expired, used or unknown: a clear page, and magic_link_expired when its flow is known. */
  async function spent(req: Request, res: Response, token: string) {
    const found = await deps.links.lookup(token);
    let locale: string | undefined;
    if (found.state === 'spent') {
      const memo = JSON.parse(found.memo || '{}') as { tenantId?: string; appId?: string; locale?: string };
      locale = memo.locale;
      const flow = await deps.flows.get<SignInRequest>(found.flowId);
      const subject =
        flow ??
        ({
          ...memo,
          id: found.flowId,
          clientIp: req.ip,
          request: {},
          originatingDevice: { deviceId: '', facts: deps.deviceFacts(undefined) },
        } as unknown as Flow<SignInRequest>);
      if (subject.tenantId && subject.appId)
        await deps.record(subject, 'magic_link_expired', { clientIp: req.ip ?? '' });
    }
    sendErrorPage(deps, req, res, 410, 'link_invalid', locale);
  }

  router.get('/link/:token', (req, res, next) => {
    const run = async () => {
      const token = String(req.params.token);
      const found = await deps.links.lookup(token);
      const flow = found.state === 'valid' ? await deps.flows.get<SignInRequest>(found.flowId) : undefined;
      if (!flow) return spent(req, res, token);
      const session = await deps.sessions.ensure(req, res);
      sendPage(
        deps,
        res,
        'magic-link-confirm',
        flow.locale,
        linkConfirmView(flow, `/link/${token}`, session.csrf),
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
      const flow = flowId ? await deps.flows.get<SignInRequest>(flowId) : undefined;
      if (!flow?.email) return spent(req, res, token);
      const device = {
        deviceId: deps.sessions.deviceId(req, res),
        facts: deps.deviceFacts(req.get('user-agent')),
      };
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
