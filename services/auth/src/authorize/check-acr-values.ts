import { problems } from './authorize-error';

export const EMAIL_ACR = 'ts.svc.iac.email';
const PHONE_ACR = 'ts.svc.iac.phone_number';

/**
 * acr_values (spec 4.2): ts.svc.iac.email makes this flow verify the email address. ts.svc.iac.phone_number
 * needs SMS, which arrives with CIBA: until then it is refused by name rather than silently not honoured,
 * since an RP asking for it relies on a verified phone. Unknown values are refused too.
 */
export function checkAcrValues(acrValues: string | undefined): string[] {
  const values = [...new Set((acrValues ?? '').split(' ').filter(Boolean))];
  if (values.includes(PHONE_ACR))
    throw problems.invalidRequest(`acr_values ${PHONE_ACR} is not supported yet`);
  if (values.some((v) => v !== EMAIL_ACR))
    throw problems.invalidRequest(`acr_values may only contain ${EMAIL_ACR}`);
  return values;
}
