import type { FlowAction, FlowEventInput, FlowEvents } from '@sesame/flow-events';
import type { Logger } from '@sesame/platform';
import { normaliseAddress } from '../authorize/check-login-hint';
import type { AnyFlow, FlowDevice } from '../flow/flow';
import { isTransaction } from './request';

/**
 * Which flow event each operation of a hosted sign-in records (the one table; the README points here):
 *
 * | operation                                         | action                      | facts it adds                         |
 * |---------------------------------------------------|-----------------------------|---------------------------------------|
 * | /authorize accepted, flow created                 | auth_start_oidc             | flowType, accessing device, IP, place |
 * | the sign-in page is shown                         | desktop_login_page          |                                       |
 * | a right email code                                | email_verification_success  | authMethodType email_otp              |
 * | a wrong email code, attempts left                 | email_verification_failure  | failureReason                         |
 * | (every event once an existing person's address is typed: userId and email, proven or not)                 |
 * | an address typed (valid), before the code is sent | desktop_login_page          | attemptedEmail, details page email_code |
 * | (every event once any address is typed or hinted: attemptedEmail, lower-case, with or without an account)  |
 * | a wrong email code that kills it (or a dead code) | email_verification_failure  | failureReason, status failure,        |
 * |                                                   |                             | errorCode auth_failure                |
 * | a magic link confirmed                            | email_verification_success  | authMethodType email_magic_link       |
 * | an expired or used magic link opened              | magic_link_expired          |                                       |
 * | a magic link opened in another browser, wrong number picked | email_verification_failure | status failure, errorCode      |
 * |                                                   |                             | auth_failure, failureReason           |
 * |                                                   |                             | "number_mismatch: …"                  |
 * | the first verified email creates the user         | new_user_registered         | userId                                |
 * | the consent page of a transaction/approval        | desktop_transaction_page    |                                       |
 * | approve or deny on the consent page               | desktop_consent             | consentDecision (+ transaction one)   |
 * | a passkey signs in (user verified)                | biometric_verification_success | authMethodType fido2               |
 * | a passkey signs without user verification         | device_auth                 | fido2, status failure → xm_mfca_required |
 * | a passkey's signature counter goes backwards      | device_auth                 | fido2, status suspected (clone?)      |
 * | a passkey created on a device new for the user    | new_device_registered       | authMethodType fido2                  |
 * | a passkey created where a suspected one was       | device_re_register          | authMethodType fido2                  |
 * | a passkey created (after the email proof)         | desktop_biometrics_registered | authMethodType fido2                |
 * | a blocked device tries to sign in                 | device_blocked_rejection    | status blocked                        |
 * | bound_to refuses the login's authenticator        | device_auth                 | status failure, failureReason         |
 * | the RP's /session-feedback confirms the login     | rp_feedback_provided        | userAlias (routes/session-feedback.ts)|
 * | /authorize or a proof from a blocked country      | restricted_location         | status blocked, failureReason         |
 * | the code is issued and the browser redirected     | auth_complete               | status success, userAlias if set      |
 * | "Use my phone", or the automatic QR: a QR shown   | new_qr_generated            | desktopLogin/TransactionDecision      |
 * |                                                   |                             | use_mobile                            |
 * | the phone opens the QR's link                     | user_scan_qr, auth_start_ama | the phone's IP                       |
 * | approve or deny on the phone's consent page       | ama_consent                 | consentDecision                       |
 * | the QR not opened within 30 s, then Back to <app>  | device_auth               | status failure, failureReason         |
 * | (unsupported_browser)                             |                             |                                       |
 * | the phone picks the wrong number (number matching) | device_auth                | status failure, errorCode auth_failure, |
 * |                                                   |                             | failureReason "number_mismatch: …"    |
 * | the phone's SMS code sent (or the send failed)     | user_send_sms               | status failure, failureReason if not  |
 * | a right SMS code (phone-number/verification.ts)   | sms_verification_success    | clientIp                              |
 * | a wrong, dead or expired SMS code                 | sms_verification_failure    | failureReason                         |
 *
 * The phone's own steps (email code, passkey) record into the desktop flow's record (one record per flow).
 *
 * A CIBA request (ciba/) records flowType ciba and these instead of the browser's start and end:
 *
 * | operation                                         | action                      | facts it adds                         |
 * |---------------------------------------------------|-----------------------------|---------------------------------------|
 * | /authorize_ciba accepted, flow created            | auth_start_native           | flowType ciba, RP's IP                |
 * | the link sent by SMS (or the send failed)         | user_send_sms               | status failure when not sent          |
 * | the person took the link (Continue)               | desktop_login_page          |                                       |
 * | approved: CompleteBackchannel                     | auth_native_complete        | status success                        |
 *
 * A device enrollment (interactive init URL; journeys/enrollment/) records flowType enrollment:
 *
 * | operation                                         | action                      | facts it adds                         |
 * |---------------------------------------------------|-----------------------------|---------------------------------------|
 * | the URL opened (and spent), enrollment created    | enroll_start_native         | flowType enrollment, userId           |
 * | the passkey created on this device                | new_device_registered / device_re_register, desktop_biometrics_registered | fido2 |
 * | enrolled, redirected to the RP                    | enroll_native_complete      | status success                        |
 * | Cancel                                            | enroll_native_complete      | status failure, failureReason         |
 *
 * A registration by link (journeys/registration/) records flowType enrollment: custodian_registration_started
 * (at send), new_user_registered, email_verification_success, the three SMS rows above when its verifications
 * ask for the phone, the passkey rows, new_qr_generated / user_scan_qr, and custodian_registration_completed.
 *
 * A flow nobody finishes keeps status incomplete, the activity log's default.
 */
/**
 * A flow known only from a spent magic link's memo (the flow itself is gone): enough to record on its record.
 */
export interface RememberedFlow {
  journey: 'remembered';
  id: string;
  tenantId: string;
  appId: string;
  clientIp: string;
  originatingDevice: FlowDevice;
}

/** What a flow event can be recorded on: any journey's flow, each read as what it is (no casts). */
export type RecordedFlow = AnyFlow | RememberedFlow;

/** The tenant, app, user and default flow type of a flow's events, by journey. */
function subjectOf(flow: RecordedFlow): {
  tenantId: string;
  appId: string;
  flowType: NonNullable<FlowEventInput['flowType']>;
  userId?: string;
  email?: string;
  attemptedEmail?: string;
} {
  switch (flow.journey) {
    case 'registration': {
      const { tenantId, appId } = flow.invitation;
      return { tenantId, appId, flowType: 'enrollment', userId: flow.userId };
    }
    case 'enrollment':
      return { tenantId: flow.tenantId, appId: flow.appId, flowType: 'enrollment', userId: flow.userId };
    case 'remembered':
      return { tenantId: flow.tenantId, appId: flow.appId, flowType: 'authentication' };
    default: {
      const flowType = flow.ciba ? 'ciba' : isTransaction(flow.request) ? 'transaction' : 'authentication';
      // The person the flow is about: proven, or named by the typed address of an existing user. The email
      // goes with a known person only (support reads it; the spec's records never show it).
      const userId = flow.userId ?? flow.typedUserId;
      const email = userId && flow.email ? flow.email : undefined;
      // The typed address itself goes with every event once typed, account or not (support finds a failed or
      // abandoned attempt by it; the page never differs, so nothing is enumerable from outside).
      const attemptedEmail = flow.email ? normaliseAddress(flow.email) : undefined;
      return { tenantId: flow.tenantId, appId: flow.appId, flowType, userId, email, attemptedEmail };
    }
  }
}

export type Recorder = (
  flow: RecordedFlow,
  action: FlowAction,
  facts?: Partial<FlowEventInput>,
) => Promise<void>;

/** One step of a batch: its action and the facts it adds. */
export type FlowStepRecord = readonly [action: FlowAction, facts?: Partial<FlowEventInput>];

/**
 * Records several steps that happen together (the first page records auth_start_oidc and desktop_login_page)
 * as one publish: one call to the bus, the flow's facts (device, place) worked out once.
 */
export type StepsRecorder = (flow: RecordedFlow, steps: readonly FlowStepRecord[]) => Promise<void>;

export function flowRecorders(
  events: FlowEvents,
  logger: Logger,
  locate: (ip: string) => FlowEventInput['accessingDeviceLocation'] = () => undefined,
): { record: Recorder; recordSteps: StepsRecorder } {
  /** What every event of the flow says about it, whatever the step. */
  const flowFacts = (flow: RecordedFlow) => {
    const { tenantId, appId, flowType, userId, email, attemptedEmail } = subjectOf(flow);
    // A phone's flow (desktop to mobile) records into the desktop flow's one record, accessed from the desktop.
    const ama = flow.journey === undefined || flow.journey === 'sign-in' ? flow.ama : undefined;
    const accessing = ama
      ? { id: ama.desktopFlowId, device: ama.desktopDevice, ip: ama.desktopIp }
      : { id: flow.id, device: flow.originatingDevice, ip: flow.clientIp };
    const device = accessing.device.facts;
    return {
      flowId: accessing.id,
      tenantId,
      appId,
      accessingIp: accessing.ip,
      accessingDeviceInfo: {
        osType: device.osType,
        osVersion: device.osVersion,
        browserType: device.browserType,
        browserVersion: device.browserVersion,
        detectedName: device.deviceName,
      },
      accessingDevice: `${device.osType} ${device.osVersion}, ${device.browserType} ${device.browserVersion}`,
      accessingDeviceLocation: locate(accessing.ip),
      flowType,
      ...(userId ? { userId } : {}),
      ...(email ? { email } : {}),
      ...(attemptedEmail ? { attemptedEmail } : {}),
    } satisfies Partial<FlowEventInput>;
  };
  const input = (
    flow: RecordedFlow,
    common: ReturnType<typeof flowFacts>,
    [action, facts = {}]: FlowStepRecord,
  ): FlowEventInput => ({
    ...common,
    action,
    clientIp: facts.clientIp ?? flow.clientIp,
    ...facts,
  });
  const recordSteps: StepsRecorder = async (flow, steps) => {
    const common = flowFacts(flow);
    try {
      await events.recordAll(steps.map((step) => input(flow, common, step)));
    } catch (err) {
      // An event that breaks the contract is a bug here; the person's sign-in goes on.
      logger.error({ err, flowId: flow.id, action: steps.map(([a]) => a).join(' ') }, 'flow event refused');
    }
  };
  return {
    record: (flow, action, facts) => recordSteps(flow, [[action, facts]]),
    recordSteps,
  };
}

export function flowRecorder(
  events: FlowEvents,
  logger: Logger,
  locate?: (ip: string) => FlowEventInput['accessingDeviceLocation'],
): Recorder {
  return flowRecorders(events, logger, locate).record;
}
