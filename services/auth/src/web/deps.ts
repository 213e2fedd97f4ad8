import type { OutgoingMail } from '@sesame/mail';
import type { Logger } from '@sesame/platform';
import type { directory } from '@sesame/proto';
import type { OutgoingSms } from '@sesame/sms';
import type { Response, Router } from 'express';
import type { AuthorizeDeps } from '../authorize/types';
import type { Brands } from '../branding/brands';
import type { EmailCodes } from '../email/email-codes';
import type { MagicLinks } from '../email/magic-links';
import type { SendThrottle } from '../email/send-throttle';
import type { Flow } from '../flow/flow';
import type { FlowStore } from '../flow/flow-store';
import type { MobileLinks } from '../flow/qr-links';
import type { PageRenderer } from '../pages';
import type { PushedRequests } from '../par/pushed-requests';
import type { PasskeyCeremonies, PasskeyRepository } from '../passkeys';
import type { BrowserSession, SessionManager } from '../session/browser-session';
import type { StepsRecorder } from '../signin/flow-events';
import type { SignInDeps } from '../signin/prove';
import type { SignInRequest } from '../signin/request';
import type { DeviceFacts } from '../users/model';

/**
 * What the shared flow pages call for a CIBA flow instead of redirecting to an RP (journeys/sign-in/flow-pages.ts);
 * journeys/ciba/finish.ts implements it. Declared here, by the side that calls it, so the pages need nothing of ciba/.
 */
export interface CibaHooks {
  finish(res: Response, ctx: { flow: Flow<SignInRequest>; session: BrowserSession }): Promise<void>;
  /** `reason` goes to Grants.DenyBackchannel (default: the user denied the request). */
  deny(res: Response, flow: Flow<SignInRequest>, reason?: string): Promise<void>;
}

/** Everything the hosted sign-in routes need, as plain values and functions (tests pass their own). */
export interface HostedDeps extends SignInDeps {
  logger: Logger;
  authUrl: string;
  sessions: SessionManager;
  flows: FlowStore;
  codes: EmailCodes;
  links: MagicLinks;
  sendThrottle: SendThrottle;
  flowTtlMs: number;
  /** For the code email's "expires in" text. */
  codeTtlMinutes: number;
  linkTtlMinutes: number;
  /** Desktop to mobile: the QR codes' one-time links, and how long the phone has to open one. */
  mobileLinks: MobileLinks;
  qrOpenTimeoutMs: number;
  /** Validates an authorization request (spec 4.2); throws the authorize module's AuthorizeError. */
  parseAuthorize(
    params: Record<string, unknown>,
  ): Promise<{ client: directory.Client; request: SignInRequest }>;
  /** What parseAuthorize checks with (the Directory, Keys, pushed requests): /par runs the same checks. */
  authorizeDeps: AuthorizeDeps;
  /** PAR's request_uris (RFC 9126), in the KV store for 60 s. */
  pushedRequests: PushedRequests;
  pages: PageRenderer;
  /** The apps' brands (mgmt's Directory.GetBranding, cached): pages and mails show them. */
  brands?: Brands;
  /** Several flow events in one publish (the first page's two). */
  recordSteps: StepsRecorder;
  sendMail(mail: OutgoingMail): Promise<unknown>;
  /** Phone verification codes (steps/phone-number/); without it phone verification says the SMS failed. */
  sendSms?(sms: OutgoingSms): Promise<unknown>;
  deviceFacts(userAgent: string | undefined): DeviceFacts;
  /** The city and country (ISO 3166-1 alpha-2) of an IP address, when known: the number-match page shows them. */
  placeOf?(ip: string): { city?: string; country?: string } | undefined;
  /** CIBA's link pages, and its finish and deny for flows that serve a CIBA request (ciba/). */
  ciba?: CibaHooks & { mountPages(router: Router): void };
  /** The device-enrollment pages of interactive init URLs (journeys/enrollment/routes.ts). */
  enrollment?: { mountPages(router: Router): void };
  /** Users' passkeys (auth owns them) and the WebAuthn ceremonies over them. */
  passkeys: PasskeyRepository;
  ceremonies: PasskeyCeremonies;
}
