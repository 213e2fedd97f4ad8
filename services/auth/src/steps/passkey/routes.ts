import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import type { Flow } from '../../flow/flow';
import { type FlowContext, withFlow } from '../../flow/flow-guard';
import { PasskeyError } from '../../passkeys';
import type { AuthenticationResponseJSON } from '../../passkeys/ceremonies';
import { afterPasskeyOffer, errorRedirect, provePasskey } from '../../signin/prove';
import { findTenantMember } from '../../users/tenant-member';
import { form, json } from '../../web/body-parsers';
import type { HostedDeps } from '../../web/deps';
import { proofSource } from '../../web/respond';
import { createPasskeyInOriginatingTab, deviceEventOf, webAuthnResponse } from './webauthn';

const emailSchema = z.string().trim().toLowerCase().max(254).email();

type Handler = (req: Request, res: Response, ctx: FlowContext) => Promise<void>;

/**
 * Passkeys on the hosted pages (the page script, pages/assets/passkeys.js, calls these with JSON and the
 * CSRF token): sign-in options (the typed email's passkeys, else discoverable) and the verified assertion;
 * after an email proof, the offer's creation options, the verified new passkey, and "Not now".
 * Each verification answers `{ location }`: the next page, or the RP's redirect with an error.
 */
/**
 * Ends a phone's flow (desktop to mobile) whose passkey failed: its desktop ends with `ended`; the answer is
 * where the phone's page goes (journeys/sign-in wires steps/qr/phone.ts).
 */
export type EndOnPhone = (flow: Flow, ended: { error: string; description: string }) => Promise<string>;

export function mountPasskeySteps(
  router: Router,
  deps: HostedDeps,
  opts: { endOnPhone?: EndOnPhone } = {},
): void {
  const postJson = (path: string, handler: Handler) =>
    router.post(`/flow/:flowId/passkey/${path}`, json, withFlow(deps, handler, { csrf: true }));
  const body = (req: Request) => (req.body ?? {}) as Record<string, unknown>;
  const continueUrl = (flowId: string) => `/flow/${flowId}/continue`;
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

  postJson('sign-in-options', async (req, res, { flow }) => {
    noStore(res);
    if (flow.proof) return void res.status(409).json({ error: 'alreadyProven' });
    const typed = emailSchema.safeParse(body(req).email);
    // Credential ids only for a member of this tenant; anyone else gets none (discoverable), as an unknown address.
    const user = typed.success ? await findTenantMember(deps.users, flow.tenantId, typed.data) : undefined;
    res.json(await deps.ceremonies.authenticationOptions(flow.id, user?.userId));
  });

  postJson('sign-in', async (req, res, { flow }) => {
    noStore(res);
    if (flow.proof) return void res.status(409).json({ error: 'alreadyProven' });
    const response = webAuthnResponse<AuthenticationResponseJSON>(req);
    if (!response) return void res.status(400).json({ error: 'invalidResponse' });
    const { device, clientIp } = proofSource(deps, req, res);
    try {
      const passkey = await deps.ceremonies.authenticate(flow.id, response);
      await provePasskey(deps, flow, { passkey, device, clientIp });
      return void res.json({ location: continueUrl(flow.id) });
    } catch (err) {
      if (!(err instanceof PasskeyError)) throw err;
      const owner = err.passkey ? { ...flow, userId: err.passkey.userId } : flow;
      if (err.reason === 'counter') {
        await deps.record(owner, 'device_auth', {
          authMethodType: 'fido2',
          clientIp,
          status: 'suspected',
          failureReason: 'the passkey’s signature counter went backwards: a possible clone',
        });
      } else if (err.reason === 'userVerification') {
        // A registered passkey signed, but the person failed its biometrics or PIN (spec 7).
        await deps.record(owner, 'device_auth', {
          authMethodType: 'fido2',
          clientIp,
          status: 'failure',
          errorCode: 'auth_failure',
          failureReason: 'user verification failed on a registered passkey',
        });
        const description = 'the user failed biometric authentication on a registered device';
        // On a phone for a desktop flow (desktop to mobile): the desktop ends with the error, the phone is told.
        if (flow.ama && opts.endOnPhone) {
          const location = await opts.endOnPhone(flow, { error: 'xm_mfca_required', description });
          return void res.json({ location });
        }
        await deps.flows.delete(flow.id);
        const location = errorRedirect(deps, flow.request, 'xm_mfca_required', description);
        return void res.json({ location });
      } else {
        req.log.info({ reason: err.reason, cause: err.cause, flowId: flow.id }, 'passkey sign-in refused');
      }
      res.status(400).json({ error: err.reason === 'noChallenge' ? 'expired' : 'refused' });
    }
  });

  postJson('create-options', async (_req, res, { flow }) => {
    noStore(res);
    if (flow.step !== 'passkey_offer' || !flow.userId) return void res.status(409).json({ error: 'noOffer' });
    res.json(await deps.ceremonies.registrationOptions(flow.id, { userId: flow.userId, email: flow.email }));
  });

  postJson('create', async (req, res, { flow }) => {
    noStore(res);
    if (flow.step !== 'passkey_offer' || !flow.userId) return void res.status(409).json({ error: 'noOffer' });
    const journey = { ...flow, userId: flow.userId };
    const created = await createPasskeyInOriginatingTab(deps, req, res, journey, 'passkey creation');
    if (!created) return;
    // A device whose earlier passkey was suspected registers again; one new to the person is a new device.
    const deviceEvent = deviceEventOf(created);
    if (deviceEvent) await deps.record(flow, deviceEvent, { authMethodType: 'fido2' });
    await deps.record(flow, 'desktop_biometrics_registered', { authMethodType: 'fido2' });
    await afterPasskeyOffer(deps, flow);
    res.json({ location: continueUrl(flow.id) });
  });

  router.post(
    '/flow/:flowId/passkey/not-now',
    form,
    withFlow(
      deps,
      async (_req, res, { flow }) => {
        if (flow.step === 'passkey_offer') await afterPasskeyOffer(deps, flow);
        res.redirect(303, continueUrl(flow.id));
      },
      { csrf: true },
    ),
  );
}
