import type { Request, Response, Router } from 'express';
import { createPasskeyInOriginatingTab, deviceEventOf, rememberDevice } from '../../steps/passkey/webauthn';
import { json } from '../../web/body-parsers';
import { type EnrollmentDeps, enrollmentRedirect, recordEnrollment, withEnrollment } from './deps';

const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

/**
 * The passkey of an enrollment (the registration half of steps/passkey/routes.ts, over the same ceremonies): the
 * page script asks for creation options for the enrollment's user, then posts the new credential. A verified
 * passkey is stored for the user on this browser's device, the device joins the user's devices (so
 * device_count counts it), and the answer is `{ location }`: the RP's redirect_uri with state.
 */
export function mountEnrollmentPasskey(router: Router, deps: EnrollmentDeps): void {
  const base = '/enroll/flow/:flowId/passkey';

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
        const device = flow.originatingDevice;
        const created = await createPasskeyInOriginatingTab(deps, req, res, flow, 'enrollment passkey');
        if (!created) return;
        // Taken after the passkey is stored: a second tab racing this one finds the enrollment gone.
        await deps.enrollmentFlows.take(flow.id);
        await rememberDevice(deps, flow.userId, device, created.known);
        const deviceEvent = deviceEventOf(created);
        if (deviceEvent) await recordEnrollment(deps, flow, deviceEvent, { authMethodType: 'fido2' });
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
