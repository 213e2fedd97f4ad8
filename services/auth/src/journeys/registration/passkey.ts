import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { PasskeyError } from '../../passkeys';
import type { RegistrationResponseJSON } from '../../passkeys/ceremonies';
import { bindRegistration } from './bind';
import {
  type RegistrationDeps,
  type RegistrationFlow,
  type RegistrationFlows,
  asSignInFlow,
  recordRegistration,
  withRegistration,
} from './flow';

const json = express.json({ limit: '32kb' });
const form = express.urlencoded({ extended: false, limit: '8kb' });
/** Just the shape: @simplewebauthn/server checks every field of the response itself. */
const responseSchema = z
  .object({ id: z.string().min(1).max(1400), response: z.object({}).passthrough() })
  .passthrough();
const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

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
        if (flow.step !== 'passkey') return void res.status(409).json({ error: 'noOffer' });
        const user = { userId: flow.userId, email: flow.invitation.email };
        res.json(await deps.ceremonies.registrationOptions(flow.id, user));
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
        const parsed = responseSchema.safeParse((req.body as Record<string, unknown> | undefined)?.response);
        if (!parsed.success) return void res.status(400).json({ error: 'invalidResponse' });
        const device = flow.originatingDevice;
        const known = await deps.users.devices.get(flow.userId, device.deviceId);
        let credentialId: string;
        try {
          const response = parsed.data as unknown as RegistrationResponseJSON;
          credentialId = (await deps.ceremonies.register(flow.id, device.deviceId, response)).credentialId;
        } catch (err) {
          if (!(err instanceof PasskeyError)) throw err;
          req.log.info({ reason: err.reason, flowId: flow.id }, 'registration passkey refused');
          return void res.status(400).json({ error: err.reason === 'noChallenge' ? 'expired' : 'refused' });
        }
        const shim = asSignInFlow(flow);
        if (!known)
          await recordRegistration(deps, shim, 'new_device_registered', { authMethodType: 'fido2' });
        await recordRegistration(deps, shim, 'desktop_biometrics_registered', { authMethodType: 'fido2' });
        await finishRegistration(deps, flows, flow, credentialId);
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
  await deps.users.devices.save({
    userId: flow.userId,
    deviceId: device.deviceId,
    registeredAt: seen?.registeredAt ?? at,
    lastSeenAt: at,
    facts: device.facts,
  });
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
  await recordRegistration(deps, asSignInFlow(flow), 'custodian_registration_completed', {
    status: 'success',
    authMethodType: credentialId ? 'fido2' : 'email_magic_link',
    ...(alias ? { userAlias: alias } : {}),
  });
}
