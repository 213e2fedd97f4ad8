import { problems } from './authorize-error';

export const EMAIL_ACR = 'ts.svc.iac.email';
export const PHONE_ACR = 'ts.svc.iac.phone_number';

/**
 * acr_values (spec 4.2): ts.svc.iac.email makes this flow verify the email address; ts.svc.iac.phone_number
 * makes it verify a mobile number by a 6-digit SMS code too (hosted/phone-steps.ts). Unknown values are
 * refused rather than silently not honoured.
 */
export function checkAcrValues(acrValues: string | undefined): string[] {
  const values = [...new Set((acrValues ?? '').split(' ').filter(Boolean))];
  if (values.some((v) => v !== EMAIL_ACR && v !== PHONE_ACR))
    throw problems.invalidRequest(`acr_values may only contain ${EMAIL_ACR} and ${PHONE_ACR}`);
  return values;
}
