import type { OutgoingMail } from '@sesame/mail';
import type { Logger } from '@sesame/platform';
import type { directory } from '@sesame/proto';
import type { EmailCodes } from '../email/email-codes';
import type { MagicLinks } from '../email/magic-links';
import type { SendThrottle } from '../email/send-throttle';
import type { FlowStore } from '../flow/flow-store';
import type { PageRenderer } from '../pages';
import type { PasskeyCeremonies, PasskeyRepository } from '../passkeys';
import type { SessionManager } from '../session/browser-session';
import type { SignInRequest } from '../signin/request';
import type { SignInDeps } from '../signin/sign-in';
import type { DeviceFacts } from '../users/model';

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
  /** Validates an authorization request (spec 4.2); throws the authorize module's AuthorizeError. */
  parseAuthorize(
    params: Record<string, unknown>,
  ): Promise<{ client: directory.Client; request: SignInRequest }>;
  pages: PageRenderer;
  sendMail(mail: OutgoingMail): Promise<unknown>;
  deviceFacts(userAgent: string | undefined): DeviceFacts;
  /** Users' passkeys (auth owns them) and the WebAuthn ceremonies over them. */
  passkeys: PasskeyRepository;
  ceremonies: PasskeyCeremonies;
}
