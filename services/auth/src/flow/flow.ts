import type { AuthorizationRequest } from '../authorize';
import type { Locale } from '../i18n';
import type { ProofMethod } from '../session/browser-session';
import type { DeviceFacts } from '../users/model';
import type { NumberMatch } from './number-match';

/** The two pools a pending sign-in counts in: `flow-large` for records over 1 KiB, with smaller caps. */
export type PendingPoolName = 'flow' | 'flow-large';

/**
 * On a sign-in read back while it is pending (nobody identified yet; flow-store.ts): the pool it counts in.
 * A symbol, so spreading the flow keeps it and JSON never stores it.
 */
export const PENDING: unique symbol = Symbol('pending sign-in');

/**
 * Where a sign-in stands; each hosted page is a view of one step. `blocked`: the person proved who they are,
 * but an admin blocked a device of the flow for that user; the flow can only end with access_denied.
 * `passkey_offer`: the email is proven on a device that can hold a passkey but has none for the person: the
 * page offers to create one (or not now) before consent or the redirect. `qr`: the desktop shows a QR code of a
 * one-time mobile link and waits for the phone (desktop to mobile, steps/qr/desktop.ts).
 */
export type FlowStep =
  | 'identify'
  | 'email_code'
  | 'link_sent'
  | 'passkey_offer'
  | 'consent'
  | 'ready'
  | 'blocked'
  | 'qr';

/** The path of a sign-in flow's pages (`/flow/<id>/…`). */
export const flowPath = (flow: { id: string }) => `/flow/${flow.id}`;

/** How the person proved who they are: declared with the browser session, which remembers it for single sign-on. */
export type { ProofMethod } from '../session/browser-session';

export interface FlowDevice {
  deviceId: string;
  facts: DeviceFacts;
}

/**
 * A person's sign-in for one authorization request (STYLE.md habit 16, after Kratos' flow objects): what was
 * asked, which browser it belongs to, and what has been proven so far. Kept in Redis until it expires, so a
 * flow resumes in another tab by its id alone, and a magic link opened on another device can complete it.
 */
export interface Flow<Request = AuthorizationRequest> {
  /** Absent on the flows of /authorize, /authorize_ciba and a phone's side: they are all sign-ins. */
  journey?: 'sign-in';
  id: string;
  tenantId: string;
  appId: string;
  clientId: string;
  appName: string;
  /** Hash of the browser session that started the flow: only that browser may drive or finish it. */
  sessionKey: string;
  request: Request;
  locale: Locale;
  createdAt: number;
  expiresAt: number;
  step: FlowStep;
  clientIp: string;
  originatingDevice: FlowDevice;
  email?: string;
  /** Set once the email is proven; the user exists from then on. */
  userId?: string;
  /**
   * The existing person the typed `email` names, before it is proven: the flow's activity record says whom
   * it was about, successful or not (support). Server-side only: no page or answer depends on it, so an
   * unknown address still looks exactly like a known one (no enumeration).
   */
  typedUserId?: string;
  /**
   * Set once the person is known. `at` is when they authenticated; `bySession` when that was an earlier
   * sign-in of this browser (single sign-on), so this login happens later than `at`.
   */
  proof?: {
    method: ProofMethod;
    at: number;
    device: FlowDevice;
    clientIp: string;
    bySession?: boolean;
    /** The passkey's credential id when a passkey proved it: the authenticator session feedback binds. */
    authenticatorId?: string;
    /** Proven on a phone for this desktop flow (amr ts.svc.ama plus the phone's method). */
    ama?: boolean;
  };
  /** The tenant's location rule when the flow started (ISO 3166-1 alpha-2 codes; Directory.GetClient). */
  blockedCountries?: string[];
  /** The client is first-party (the Sesame Console): its sign-in asks no consent (signin/prove.ts). */
  firstParty?: boolean;
  /**
   * Why a `blocked` flow is: a device an admin blocked for the user, a country the tenant blocks, or bound_to
   * naming a user or authenticator the login does not match (signin/bound-to.ts).
   */
  blockedBy?: 'device' | 'location' | 'not_bound' | 'disabled';
  /** The browser said (page script) it has a user-verifying platform authenticator: a passkey can be offered. */
  canCreatePasskey?: boolean;
  /** The user was new for this application when the flow was proven. */
  newUser?: boolean;
  /** The mobile number being verified (acr ts.svc.iac.phone_number), and whether its SMS code was right. */
  phone?: { number: string; verified: boolean };
  /** The person asked for an email code instead of the automatic QR (no passkey on this desktop). */
  emailInstead?: boolean;
  /** The desktop's QR code (step `qr`): which link it shows, until when it may be opened, and the phone's flow. */
  qr?: MobileQr;
  /** Set on the phone's flow of a desktop-to-mobile sign-in: the desktop flow it proves the person for. */
  ama?: AmaFlowFacts;
  /** Set when the flow serves a CIBA request (/authorize_ciba) instead of a browser's /authorize. */
  ciba?: CibaFlowFacts;
  /**
   * The number this flow's waiting page shows and the three choices the approving device offers, once a magic
   * link is sent or the QR is shown (flow/number-match.ts). Only a sign-in's own desktop flow has one.
   */
  numberMatch?: NumberMatch;
  /**
   * A magic link opened in another browser was confirmed with the wrong number: the flow is over, and the tab
   * that waits for it ends at the RP with this error.
   */
  ended?: { error: string; description: string };
  /** Set while the flow is pending (flow-store.ts FlowStore): never stored as a field. */
  [PENDING]?: PendingPoolName;
}

/** What a CIBA flow keeps beside the request: how to reach its grant, and how the link went out. */
export interface CibaFlowFacts {
  /** The auth_req_id, sealed (ciba/sealed-id.ts): Grants needs it, Redis must not reveal it. */
  sealedAuthReqId: string;
  channel: 'direct_link' | 'sms';
  /** Set once the person took the link (Continue on its first page). */
  linkTaken?: boolean;
}

/** A QR code shown on the desktop: the hash of its one-time link (qr-links.ts) and its fate. */
export interface MobileQr {
  linkHash: string;
  /** The phone must open the link before this (epoch ms), else it dies and the desktop offers a new code. */
  openBy: number;
  openedAt?: number;
  phoneFlowId?: string;
  /** The phone's flow ended without a proof (declined, or blocked): the desktop ends with this redirect error. */
  ended?: { error: string; description: string };
}

/** What a phone's flow keeps of the desktop flow it serves: events go to that flow's record, with its device. */
export interface AmaFlowFacts {
  desktopFlowId: string;
  desktopDevice: FlowDevice;
  desktopIp: string;
  /** The person picked the number the desktop shows: only then may the phone's proof reach the desktop. */
  matched?: boolean;
}

/**
 * An enrollment (interactive init, purpose device_enrollment) after its link was opened: which user adds a
 * device to which app, the browser it is bound to, and where it ends. Kept apart from sign-in flows (own
 * keyspace and routes, flow-store.ts) so no sign-in step can ever act on it, and the reverse.
 */
export interface EnrollmentFlow {
  journey: 'enrollment';
  id: string;
  tenantId: string;
  appId: string;
  clientId: string;
  appName: string;
  userId: string;
  /** Hash of the browser session that opened the link: only that browser may drive the enrollment. */
  sessionKey: string;
  request: { redirectUri: string; state?: string };
  locale: Locale;
  createdAt: number;
  expiresAt: number;
  clientIp: string;
  /** The browser that opened the link: the device being enrolled. */
  originatingDevice: FlowDevice;
  /** "Add a phone instead": the QR the desktop shows and what the phone did with it. */
  qr?: PhoneQr;
}

/**
 * The phone side of an enrollment or a registration (steps/qr). Only the hash of the QR's one-time link is
 * kept (qr-links.ts).
 */
export interface PhoneQr {
  /** Hash of the link shown now; undefined until the QR page draws one. */
  linkHash?: string;
  /** The link must be opened before this time (epoch ms), else the flow ends (unsupported_browser). */
  openBy?: number;
  openedAt?: number;
  /** The phone's browser session and device: only that browser drives the phone's passkey step. */
  phoneSessionKey?: string;
  phoneDevice?: FlowDevice;
  /** The phone stored its passkey: the desktop tab ends at the RP. */
  done?: boolean;
  /** The phone cancelled: the desktop ends with this error. */
  ended?: { error: string; error_description: string };
}

/** What a registration link stands for (journeys/registration/links.ts keeps it under the link's hash). */
export interface Invitation {
  /** The registration's flow id (one activity record from send to completion). */
  flowId: string;
  tenantId: string;
  appId: string;
  clientId: string;
  appName: string;
  registrationRedirectUri: string;
  email: string;
  scopes: string[];
  verifications: string[];
  /** The alias stored for the app after registration (userEmail for type email), none when absent. */
  alias?: string;
  confirmedUser: boolean;
  customMessage?: string;
  secondaryCompletionMessage?: string;
  completionText?: string;
  completionLink?: { redirectUri: string; label: string };
  locale: Locale;
  createdAt: number;
  expiresAt: number;
}

/**
 * A person's registration by an emailed link (send-activation), after Continue took the link: the email is
 * proven, the user exists. `phone`: the mobile number to verify first, when the invitation's verifications
 * ask for it (journeys/registration/phone-number.ts); `passkey`: create one or not now; `complete`: the
 * completion page.
 */
export interface RegistrationFlow {
  journey: 'registration';
  /** The invitation's flow id: one activity record from send-activation to completion. */
  id: string;
  sessionKey: string;
  invitation: Invitation;
  userId: string;
  step: 'phone' | 'passkey' | 'complete';
  /** At step `phone`: the number its last code was texted to, not yet the user's (it is once verified). */
  phone?: string;
  locale: Locale;
  clientIp: string;
  originatingDevice: FlowDevice;
  createdAt: number;
  expiresAt: number;
  /**
   * Desktop-to-mobile hook: set when this registration finishes on the phone of a desktop-to-mobile flow
   * (the QR pages), so the completion page shows the invitation's secondaryCompletionMessage there.
   */
  phoneSide?: boolean;
  /** "Use my phone": the QR the desktop shows and the phone that opened it (journeys/registration/qr.ts). */
  qr?: PhoneQr;
}

/** Any journey's flow: `journey` tells them apart, so nothing needs to pass one off as another. */
export type AnyFlow = Flow | EnrollmentFlow | RegistrationFlow;
