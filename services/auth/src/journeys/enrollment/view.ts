import type { Request, Response } from 'express';
import type { EnrollmentFlow } from '../../flow/flow';
import type { EnrollPasskeyView } from '../../pages/views';
import type { EnrollmentDeps } from './deps';

/**
 * The enroll-passkey page for the browser of this request (its session ensured first): the passkey box and
 * Cancel under `path`, the desktop's page or the phone's.
 */
export async function enrollPasskeyView(
  deps: EnrollmentDeps,
  req: Request,
  res: Response,
  flow: EnrollmentFlow,
  path: string,
): Promise<EnrollPasskeyView> {
  const session = await deps.sessions.ensure(req, res);
  const user = await deps.users.users.get(flow.userId);
  return {
    appName: flow.appName,
    ...(user?.email ? { email: user.email } : {}),
    csrf: session.csrf,
    optionsUrl: `${path}/passkey/create-options`,
    verifyUrl: `${path}/passkey/create`,
    cancelAction: `${path}/cancel`,
  };
}
