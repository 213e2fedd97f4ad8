import type { Locale } from '../i18n';
import type { DeviceFacts } from '../users/model';

/**
 * Where a sign-in stands; each hosted page is a view of one step. `blocked`: the person proved who they are,
 * but an admin blocked a device of the flow for that user; the flow can only end with access_denied.
 * `passkey_offer`: the email is proven on a device that can hold a passkey but has none for the person: the
 * page offers to create one (or not now) before consent or the redirect. `qr`: the desktop shows a QR code of a
 * one-time mobile link and waits for the phone (desktop to mobile, hosted/mobile-steps.ts).
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

/** How the person proved who they are; `fido2`: a passkey with user verification (amr ts.svc.mfca). */
export type ProofMethod = 'email_otp' | 'email_magic_link' | 'fido2';

export interface FlowDevice {
  deviceId: string;
  facts: DeviceFacts;
}

/**
 * A person's sign-in for one authorization request (STYLE.md habit 16, after Kratos' flow objects): what was
 * asked, which browser it belongs to, and what has been proven so far. Kept in Redis until it expires, so a
 * flow resumes in another tab by its id alone, and a magic link opened on another device can complete it.
 */
export interface Flow<Request = unknown> {
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
  /**
   * Why a `blocked` flow is: a device an admin blocked for the user, a country the tenant blocks, or bound_to
   * naming a user or authenticator the login does not match (signin/bound-to.ts).
   */
  blockedBy?: 'device' | 'location' | 'not_bound';
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
}

/** What a CIBA flow keeps beside the request: how to reach its grant, and how the link went out. */
export interface CibaFlowFacts {
  /** The auth_req_id, sealed (ciba/sealed-id.ts): Grants needs it, Redis must not reveal it. */
  sealedAuthReqId: string;
  channel: 'direct_link' | 'sms';
  /** Set once the person took the link (Continue on its first page). */
  linkTaken?: boolean;
}

/** A QR code shown on the desktop: the hash of its one-time link (mobile/mobile-links.ts) and its fate. */
export interface MobileQr {
  linkHash: string;
  /** The phone must open the link before this (epoch ms), else the flow ends with unsupported_browser. */
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
}
