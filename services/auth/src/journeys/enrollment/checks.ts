import { type FlowCheck, firstUnmetOf } from '../../flow/checks';
import type { EnrollmentFlow } from '../../flow/flow';

/**
 * What an enrollment still needs, in order (the shape of the sign-in's checks, journeys/sign-in/checks.ts).
 * GET /enroll/flow/:id (routes.ts) shows the page of the first unmet one. An enrollment flow lives until its
 * passkey is created or it is cancelled (both take the flow and end at the RP), so a flow that can be read
 * always still needs its passkey: on the phone the person chose, or else on this device.
 *
 * | check            | unmet when                                               | page                        |
 * |------------------|----------------------------------------------------------|-----------------------------|
 * | passkey-on-phone | the person chose "Add a phone instead" (the flow has a QR) | the QR page (qr.ts)       |
 * | passkey-here     | no passkey yet (always, while the flow lives)             | the enroll-passkey page     |
 */
export const ENROLLMENT_CHECKS = [
  { name: 'passkey-on-phone', unmet: (flow: EnrollmentFlow) => Boolean(flow.qr) },
  { name: 'passkey-here', unmet: (_flow: EnrollmentFlow) => true },
] as const satisfies readonly FlowCheck<EnrollmentFlow>[];

export type EnrollmentCheck = (typeof ENROLLMENT_CHECKS)[number]['name'];

/** The first check the enrollment does not meet yet. */
export const firstUnmet = (flow: EnrollmentFlow): EnrollmentCheck | undefined =>
  firstUnmetOf(ENROLLMENT_CHECKS, flow);
