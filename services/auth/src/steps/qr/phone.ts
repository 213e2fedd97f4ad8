import { newFlowId } from '@sesame/flow-events';
import type { Request, Response, Router } from 'express';
import { withBrandOf } from '../../branding/with-brand';
import type { Flow } from '../../flow/flow';
import type { FlowContext } from '../../flow/flow-guard';
import { negotiateLocale } from '../../i18n';
import { signedInKeeping } from '../../session/sign-in-session';
import type { SignInRequest } from '../../signin/request';
import type { HostedDeps } from '../../web/deps';
import { sendLinkInvalid, sendPage, thisDevice } from '../../web/respond';
import { linkOpens } from './qr-page';

type SignInFlow = Flow<SignInRequest>;

/** Where a phone's page script goes when its passkey step ended the flow (nothing of the flow is in it). */
export const MOBILE_REFUSED_PATH = '/mobile/refused';

/**
 * Desktop to mobile, the phone's side. Opening the QR's link (within 30 s, once, and only the link the desktop
 * shows now) starts the phone's own flow in the phone's own browser session, bound to the desktop flow: the
 * phone signs in with the usual steps (passkey, or an email code then a new passkey) and consent; its finish
 * hands the proof to the desktop flow, whose tab then continues to the redirect.
 */
export function mountMobilePhoneSteps(router: Router, deps: HostedDeps): void {
  const refuse = (req: Request, res: Response, flow?: SignInFlow) =>
    sendLinkInvalid(deps, req, res, flow?.locale);

  router.get(MOBILE_REFUSED_PATH, (req, res) => {
    const locale = negotiateLocale([], req.get('accept-language'));
    sendPage(deps, res, 'mobile-done', locale, { outcome: 'refused' }, { status: 403 });
  });

  router.get('/m/:token', (req, res, next) => {
    const run = async () => {
      res.set('Cache-Control', 'no-store');
      const taken = await deps.mobileLinks.take(String(req.params.token));
      if (taken.state === 'unknown') return refuse(req, res);
      const desktop = await deps.flows.get(taken.flowId);
      // The desktop flow's brand on the phone (the one kept with a spent link once that flow is gone).
      await withBrandOf(deps, res, desktop ?? (taken.state === 'spent' ? taken.owner : undefined));
      const now = deps.now();
      const usable =
        taken.state === 'taken' &&
        desktop?.step === 'qr' &&
        !desktop.proof &&
        !!desktop.qr &&
        linkOpens(desktop.qr, taken, now);
      if (!desktop || !usable) return refuse(req, res, desktop);

      const session = await deps.sessions.ensure(req, res);
      const phone: SignInFlow = {
        id: newFlowId(now),
        tenantId: desktop.tenantId,
        appId: desktop.appId,
        clientId: desktop.clientId,
        appName: desktop.appName,
        sessionKey: session.key,
        request: desktop.request,
        locale: desktop.locale,
        createdAt: now,
        expiresAt: desktop.expiresAt,
        step: 'identify',
        clientIp: req.ip ?? '',
        originatingDevice: thisDevice(deps, req, res),
        email: desktop.email,
        blockedCountries: desktop.blockedCountries,
        ama: {
          desktopFlowId: desktop.id,
          desktopDevice: desktop.originatingDevice,
          desktopIp: desktop.clientIp,
        },
      };
      await deps.flows.create(phone);
      const opened = { ...desktop.qr!, openedAt: now, phoneFlowId: phone.id };
      if (!(await deps.flows.save({ ...desktop, qr: opened }))) return refuse(req, res, desktop);
      await deps.record(phone, 'user_scan_qr', { clientIp: phone.clientIp });
      await deps.record(phone, 'auth_start_ama', { clientIp: phone.clientIp });
      res.redirect(303, `/flow/${phone.id}`);
    };
    run().catch(next);
  });
}

/** The desktop flow a phone's flow serves, if it still waits for exactly this phone. */
export async function desktopOf(deps: HostedDeps, phone: SignInFlow): Promise<SignInFlow | undefined> {
  if (!phone.ama) return undefined;
  const desktop = await deps.flows.get(phone.ama.desktopFlowId);
  return desktop?.qr?.phoneFlowId === phone.id && !desktop.proof ? desktop : undefined;
}

/**
 * The phone's flow is proven and consented: the desktop flow takes its proof (amr ts.svc.ama plus the phone's
 * method; the phone is the authenticating device) and is ready; the phone is signed in and says "go back".
 */
export async function finishOnPhone(deps: HostedDeps, res: Response, { flow, session }: FlowContext) {
  const desktop = await desktopOf(deps, flow);
  await deps.flows.delete(flow.id);
  if (!desktop || !flow.proof || !flow.userId) {
    return sendPage(
      deps,
      res,
      'error',
      flow.locale,
      {
        title: 'error.flowExpired.title',
        message: 'error.flowExpired.message',
      },
      { status: 410 },
    );
  }
  await deps.flows.save({
    ...desktop,
    email: flow.email,
    userId: flow.userId,
    newUser: flow.newUser,
    proof: { ...flow.proof, ama: true },
    step: 'ready',
  });
  await deps.sessions.rotate(
    res,
    session,
    signedInKeeping(session.signedIn, {
      userId: flow.userId,
      tenantId: flow.tenantId,
      method: flow.proof.method,
      authTime: flow.proof.at,
    }),
    { device: flow.originatingDevice.facts, clientIp: flow.clientIp },
  );
  sendPage(deps, res, 'mobile-done', flow.locale, {});
}

/**
 * The phone's flow ends without a proof: declined on its consent page (access_denied), or blocked by a rule
 * (a blocked country or device). The desktop ends with that error (its tab follows by itself).
 */
export async function endOnPhone(
  deps: HostedDeps,
  res: Response,
  flow: SignInFlow,
  outcome: 'declined' | 'refused',
  ended: { error: string; description: string },
) {
  await endDesktopFromPhone(deps, flow, ended);
  sendPage(deps, res, 'mobile-done', flow.locale, { outcome }, { status: outcome === 'refused' ? 403 : 200 });
}

/** Ends the phone's flow and gives its desktop flow the redirect error it ends with. */
export async function endDesktopFromPhone(
  deps: HostedDeps,
  flow: SignInFlow,
  ended: { error: string; description: string },
) {
  const desktop = await desktopOf(deps, flow);
  await deps.flows.delete(flow.id);
  if (desktop?.qr) await deps.flows.save({ ...desktop, qr: { ...desktop.qr, ended } });
}
