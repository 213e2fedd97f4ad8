import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { PasskeyError } from '../../passkeys';
import type { RegistrationResponseJSON } from '../../passkeys/ceremonies';
import { type EnrollmentDeps, enrollmentRedirect, recordEnrollment, withEnrollment } from './deps';

const json = express.json({ limit: '32kb' });
/** Just the shape: @simplewebauthn/server checks every field of the response itself. */
const responseSchema = z
  .object({ id: z.string().min(1).max(1400), response: z.object({}).passthrough() })
  .passthrough();
const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

/**
 * The passkey of an enrollment (the registration half of passkey-steps.ts, over the same ceremonies): the
 * page script asks for creation options for the enrollment's user, then posts the new credential. A verified
 * passkey is stored for the user on this browser's device, the device joins the user's devices (so
 * device_count counts it), and the answer is `{ location }`: the RP's redirect_uri with state.
 */
export function mountEnrollmentPasskey(router: Router, deps: EnrollmentDeps): void {
  const base = '/enroll/flow/:flowId/passkey';
  const body = (req: Request) => (req.body ?? {}) as Record<string, unknown>;

  router.post(
    `${base}/create-options`,
    json,
    withEnrollment(
      deps,
      async (_req, res, flow) => {
        noStore(res);
        const user = await deps.users.users.get(flow.userId);
        if (!user) return void res.status(410).json({ error: 'expired' });
        res.json(
          await deps.ceremonies.registrationOptions(flow.id, { userId: user.userId, email: user.email }),
        );
      },
      { csrf: true },
    ),
  );

  router.post(
    `${base}/create`,
    json,
    withEnrollment(
      deps,
      async (req, res, flow) => {
        noStore(res);
        const parsed = responseSchema.safeParse(body(req).response);
        if (!parsed.success) return void res.status(400).json({ error: 'invalidResponse' });
        const device = flow.originatingDevice;
        const known = await deps.users.devices.get(flow.userId, device.deviceId);
        const hadOne = (await deps.passkeys.listForUser(flow.userId)).some(
          (p) => p.deviceId === device.deviceId,
        );
        try {
          await deps.ceremonies.register(
            flow.id,
            device.deviceId,
            parsed.data as unknown as RegistrationResponseJSON,
          );
        } catch (err) {
          if (!(err instanceof PasskeyError)) throw err;
          req.log.info(
            { reason: err.reason, cause: err.cause, flowId: flow.id },
            'enrollment passkey refused',
          );
          return void res.status(400).json({ error: err.reason === 'noChallenge' ? 'expired' : 'refused' });
        }
        // Taken after the passkey is stored: a second tab racing this one finds the enrollment gone.
        await deps.enrollmentFlows.take(flow.id);
        const now = deps.now();
        await deps.users.devices.save({
          userId: flow.userId,
          deviceId: device.deviceId,
          registeredAt: known?.registeredAt ?? now,
          lastSeenAt: now,
          facts: device.facts,
        });
        if (hadOne) await recordEnrollment(deps, flow, 'device_re_register', { authMethodType: 'fido2' });
        else if (!known)
          await recordEnrollment(deps, flow, 'new_device_registered', { authMethodType: 'fido2' });
        await recordEnrollment(deps, flow, 'desktop_biometrics_registered', { authMethodType: 'fido2' });
        await recordEnrollment(deps, flow, 'enroll_native_complete', {
          status: 'success',
          authMethodType: 'fido2',
        });
        res.json({ location: enrollmentRedirect(flow) });
      },
      { csrf: true },
    ),
  );
}
