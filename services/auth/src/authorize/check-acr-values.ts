import { ACR_VALUES, EMAIL_ACR, PHONE_ACR, oauthErrors as problems } from '@sesame/oauth';

export { EMAIL_ACR, PHONE_ACR };
const supported: ReadonlySet<string> = new Set(ACR_VALUES);

/**
 * acr_values (spec 4.2): ts.svc.iac.email makes this flow verify the email address; ts.svc.iac.phone_number
 * makes it verify a mobile number by a 6-digit SMS code too (steps/phone-number/routes.ts). Unknown values are
 * refused rather than silently not honoured.
 */
export function checkAcrValues(acrValues: string | undefined): string[] {
  const values = [...new Set((acrValues ?? '').split(' ').filter(Boolean))];
  if (values.some((v) => !supported.has(v)))
    throw problems.invalidRequest(`acr_values may only contain ${ACR_VALUES.join(' and ')}`);
  return values;
}
