import type { FlowAction, FlowEventInput } from '@sesame/flow-events';
import type { KeyValueStore } from '@sesame/kv';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Flow, FlowDevice } from '../../flow/flow';
import { signalChange, watchChanges } from '../../flow/flow-changes';
import type { Locale } from '../../i18n';
import type { BrowserSession } from '../../session/browser-session';
import type { SignInRequest } from '../../signin/request';
import type { HostedDeps } from '../../web/deps';
import { sendErrorPage, sendPage } from '../../web/respond';
import type { EnrollmentQr } from '../enrollment/flows';
import type { Invitation, RegistrationLinks } from './links';

/**
 * A person's registration by an emailed link (send-activation), after Continue took the link: the email is
 * proven, the user exists. `phone`: the mobile number to verify first, when the invitation's verifications
 * ask for it (registration-phone-number.ts); `passkey`: create one or not now; `complete`: the completion page.
 */
export interface RegistrationFlow {
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
  /** "Use my phone": the QR the desktop shows and the phone that opened it (registration-phone.ts). */
  qr?: EnrollmentQr;
}

export interface RegistrationDeps extends HostedDeps {
  registrationLinks: RegistrationLinks;
  /** Where registration flows live (auth's KV store). */
  kv: KeyValueStore;
}

const key = (id: string) => `registration-flow:${id}`;

/** Registration flows in the KV store under their id (a UUID, not a secret: the session binding guards them). */
export class RegistrationFlows {
  constructor(private readonly kv: KeyValueStore) {}

  async create(flow: RegistrationFlow): Promise<boolean> {
    const ttlMs = flow.expiresAt - flow.createdAt;
    return this.kv.set(key(flow.id), JSON.stringify(flow), { ttlMs, onlyIfAbsent: true });
  }

  async get(id: string): Promise<RegistrationFlow | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
    const raw = await this.kv.get(key(id));
    return raw ? (JSON.parse(raw) as RegistrationFlow) : undefined;
  }

  async save(flow: RegistrationFlow): Promise<boolean> {
    const saved = await this.kv.replace(key(flow.id), JSON.stringify(flow));
    if (saved) await signalChange(this.kv, key(flow.id));
    return saved;
  }

  /** Calls `listener` whenever this registration changes or ends (on any pod); the result stops listening. */
  watch(id: string, listener: () => void): Promise<() => void> {
    return watchChanges(this.kv, key(id), listener);
  }
}

/** The registration as the sign-in recorder sees a flow, so its events carry the same device facts. */
export function asSignInFlow(r: RegistrationFlow): Flow<SignInRequest> {
  const inv = r.invitation;
  return {
    id: r.id,
    tenantId: inv.tenantId,
    appId: inv.appId,
    clientId: inv.clientId,
    appName: inv.appName,
    sessionKey: r.sessionKey,
    // The recorder reads only the request's claims (transaction or not): a registration has none.
    request: {} as SignInRequest,
    locale: r.locale,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    step: 'ready',
    clientIp: r.clientIp,
    originatingDevice: r.originatingDevice,
    email: inv.email,
    userId: r.userId,
  };
}

/** Records one step of a registration: flowType enrollment (spec 2.4), alias once it is known. */
export function recordRegistration(
  deps: HostedDeps,
  flow: Flow<SignInRequest>,
  action: FlowAction,
  facts: Partial<FlowEventInput> = {},
): Promise<void> {
  return deps.record(flow, action, { flowType: 'enrollment', ...facts });
}

export type RegistrationHandler = (
  req: Request,
  res: Response,
  ctx: { flow: RegistrationFlow; session: BrowserSession },
) => Promise<void>;

/** Loads the registration named in the path for the browser that took the link; POSTs need its CSRF token. */
export function withRegistration(
  deps: HostedDeps,
  flows: RegistrationFlows,
  handler: RegistrationHandler,
  opts: { csrf: boolean },
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const run = async () => {
      const flow = await flows.get(String(req.params.registrationId));
      if (!flow) return sendErrorPage(deps, req, res, 410, 'flowExpired');
      const session = await deps.sessions.load(req);
      if (!session || session.key !== flow.sessionKey) {
        return sendErrorPage(deps, req, res, 403, 'sessionMismatch', flow.locale);
      }
      if (opts.csrf && !deps.sessions.csrfMatches(session, (req.body as Record<string, unknown>)?.csrf)) {
        return sendErrorPage(deps, req, res, 403, 'csrf', flow.locale);
      }
      await handler(req, res, { flow, session });
    };
    run().catch(next);
  };
}

/**
 * The completion page: the invitation's text and link, and its secondaryCompletionMessage only where the
 * registration finished on the phone of a desktop-to-mobile flow (`phoneSide`).
 */
export function sendRegistrationComplete(deps: HostedDeps, res: Response, flow: RegistrationFlow): void {
  const inv = flow.invitation;
  sendPage(deps, res, 'register-complete', flow.locale, {
    appName: inv.appName,
    // The phone of a desktop-to-mobile registration is done: the desktop tab goes back to the app, not it.
    ...(flow.phoneSide ? { onPhone: true } : { backUrl: inv.registrationRedirectUri }),
    ...(inv.completionText ? { completionText: inv.completionText } : {}),
    ...(inv.completionLink
      ? { link: { url: inv.completionLink.redirectUri, label: inv.completionLink.label } }
      : {}),
    ...(flow.phoneSide && inv.secondaryCompletionMessage
      ? { secondaryMessage: inv.secondaryCompletionMessage }
      : {}),
  });
}
