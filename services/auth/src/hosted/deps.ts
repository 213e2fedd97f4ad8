import type { Logger } from '@sesame/platform';
import type { directory } from '@sesame/proto';
import type { EmailCodes } from '../email/email-codes';
import type { MagicLinks } from '../email/magic-links';
import type { SendThrottle } from '../email/send-throttle';
import type { FlowStore } from '../flow/flow-store';
import type { SessionManager } from '../session/browser-session';
import type { SignInRequest } from '../signin/request';
import type { SignInDeps } from '../signin/sign-in';
import type { DeviceFacts } from '../users/model';

/** A page of the hosted flow: rendered from a template and the messages of one locale. */
export type RenderPage = (page: string, locale: string, view: Record<string, unknown>) => string;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
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
  /** Validates an authorization request (spec 4.2); throws the authorize module's AuthorizeError. */
  parseAuthorize(
    params: Record<string, unknown>,
  ): Promise<{ client: directory.Client; request: SignInRequest }>;
  render: RenderPage;
  /** Headers of every hosted page (CSP with the RP's origin in form-action, no-store, no referrer). */
  pageHeaders(formActionOrigins: string[]): Record<string, string>;
  negotiateLocale(uiLocales: string[], acceptLanguage: string | undefined): string;
  translate(locale: string, key: string, vars?: Record<string, string | number>): string;
  sendMail(mail: OutgoingMail): Promise<unknown>;
  deviceFacts(userAgent: string | undefined): DeviceFacts;
}
