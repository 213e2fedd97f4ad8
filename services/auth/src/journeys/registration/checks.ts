import { type FlowCheck, firstUnmetOf } from '../../flow/checks';
import type { RegistrationFlow } from '../../flow/flow';

/**
 * What a registration still needs before its completion page, in order (the shape of the sign-in's checks,
 * journeys/sign-in/checks.ts). GET /registration/:id (routes.ts) shows the page of the first unmet one and
 * the completion page when none is left; the completion page sends any other flow back.
 *
 * | check           | unmet when                                                  | page                            |
 * |-----------------|-------------------------------------------------------------|---------------------------------|
 * | phone-verified  | the invitation asks for a mobile number not verified yet   | /registration/:id/phone-number  |
 * | passkey-decided | no passkey was created (here or on a phone) and no Not now | the passkey page, or its QR     |
 */
export const REGISTRATION_CHECKS = [
  { name: 'phone-verified', unmet: (flow: RegistrationFlow) => flow.step === 'phone' },
  { name: 'passkey-decided', unmet: (flow: RegistrationFlow) => flow.step === 'passkey' },
] as const satisfies readonly FlowCheck<RegistrationFlow>[];

export type RegistrationCheck = (typeof REGISTRATION_CHECKS)[number]['name'];

/** The first check the registration does not meet yet; undefined: it is complete. */
export const firstUnmet = (flow: RegistrationFlow): RegistrationCheck | undefined =>
  firstUnmetOf(REGISTRATION_CHECKS, flow);
