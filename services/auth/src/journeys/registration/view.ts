import type { RegistrationFlow } from '../../flow/flow';
import type { RegisterPasskeyView } from '../../pages';

/**
 * The registration's passkey page, on the desktop (`/registration/<id>`: with Not now and Use my phone) or on
 * the phone that opened its QR (`/registration/<id>/phone`: the passkey only). `path` is where its forms post.
 */
export function registerPasskeyView(
  flow: RegistrationFlow,
  csrf: string,
  path: string,
  desktop: boolean,
): RegisterPasskeyView {
  const inv = flow.invitation;
  return {
    appName: inv.appName,
    email: inv.email,
    ...(inv.customMessage ? { customMessage: inv.customMessage } : {}),
    csrf,
    optionsUrl: `${path}/passkey/create-options`,
    verifyUrl: `${path}/passkey/create`,
    ...(desktop ? { notNowAction: `${path}/not-now`, mobileAction: `${path}/mobile` } : {}),
  };
}
