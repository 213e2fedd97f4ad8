import type { Request, Response, Router } from 'express';
import { createPasskeyInOriginatingTab, rememberDevice } from '../../steps/passkey/webauthn';
import { form, json } from '../../web/body-parsers';
import { bindRegistration } from './bind';
import {
  type RegistrationDeps,
  type RegistrationFlow,
  type RegistrationFlows,
  recordRegistration,
  withRegistration,
} from './flow';

const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

/**
 * Answers the passkey script's options request at the registration's passkey step (on the desktop or the
 * phone, each with its own ceremony key); 409 noOffer once the registration is past it.
 */
export async function sendPasskeyOptions(
  deps: RegistrationDeps,
  res: Response,
  flow: RegistrationFlow,
  ceremonyKey: string,
): Promise<void> {
  if (flow.step !== 'passkey') return void res.status(409).json({ error: 'noOffer' });
  const user = { userId: flow.userId, email: flow.invitation.email };
  res.json(await deps.ceremonies.registrationOptions(ceremonyKey, user));
}

/**
 * The registration's passkey step, the same ceremony as the sign-in's passkey offer (PasskeyCeremonies, the
 * page script pages/assets/passkeys.js): creation options, the verified new passkey, or Not now (the person
 * signs in with email codes from then on). Either way the registration finishes (finishRegistration).
 */
export function mountRegistrationPasskey(
  router: Router,
  deps: RegistrationDeps,
  flows: RegistrationFlows,
): void {
  const path = (p: string) => `/registration/:registrationId/${p}`;
  const completeUrl = (flow: RegistrationFlow) => `/registration/${flow.id}/complete`;

  router.post(
    path('passkey/create-options'),
    json,
    withRegistration(
      deps,
      flows,
      async (_req, res, { flow }) => {
        noStore(res);
        await sendPasskeyOptions(deps, res, flow, flow.id);
      },
      { csrf: true },
    ),
  );

  router.post(
    path('passkey/create'),
    json,
    withRegistration(
      deps,
      flows,
      async (req: Request, res, { flow }) => {
        noStore(res);
        if (flow.step !== 'passkey') return void res.status(409).json({ error: 'noOffer' });
        const created = await createPasskeyInOriginatingTab(deps, req, res, flow, 'registration passkey');
        if (!created) return;
        if (!created.known)
          await recordRegistration(deps, flow, 'new_device_registered', { authMethodType: 'fido2' });
        await recordRegistration(deps, flow, 'desktop_biometrics_registered', { authMethodType: 'fido2' });
        await finishRegistration(deps, flows, flow, created.passkey.credentialId);
        res.json({ location: completeUrl(flow) });
      },
      { csrf: true },
    ),
  );

  router.post(
    path('not-now'),
    form,
    withRegistration(
      deps,
      flows,
      async (_req, res, { flow }) => {
        if (flow.step === 'passkey') await finishRegistration(deps, flows, flow);
        res.redirect(303, completeUrl(flow));
      },
      { csrf: true },
    ),
  );
}

/**
 * The end of a registration: the device is the user's, the user is bound to the app when the invitation says
 * confirmedUser (with its alias), custodian_registration_completed closes the activity record. `device`: the
 * one that created the passkey (the phone's, when the person chose Use my phone).
 */
export async function finishRegistration(
  deps: RegistrationDeps,
  flows: RegistrationFlows,
  flow: RegistrationFlow,
  credentialId?: string,
  device = flow.originatingDevice,
): Promise<void> {
  const at = deps.now();
  const inv = flow.invitation;
  const seen = await deps.users.devices.get(flow.userId, device.deviceId);
  await rememberDevice(deps, flow.userId, device, seen, at);
  let alias: string | undefined;
  if (inv.confirmedUser) {
    const aliasSet = await bindRegistration(deps.users.memberships, {
      tenantId: inv.tenantId,
      appId: inv.appId,
      userId: flow.userId,
      ...(credentialId ? { authenticatorId: credentialId } : {}),
      deviceId: device.deviceId,
      ...(inv.alias ? { alias: inv.alias } : {}),
      scopes: inv.scopes,
      at,
    });
    if (aliasSet) alias = inv.alias;
  }
  await flows.save({ ...flow, step: 'complete' });
  flow.step = 'complete';
  await recordRegistration(deps, flow, 'custodian_registration_completed', {
    status: 'success',
    authMethodType: credentialId ? 'fido2' : 'email_magic_link',
    ...(alias ? { userAlias: alias } : {}),
  });
}
