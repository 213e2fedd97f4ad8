import type { Request, RequestHandler, Response } from 'express';
import { brandOwnerOf, withBrandOf } from '../../branding/with-brand';
import type { PhoneQr } from '../../flow/flow';
import { flowStatusHandler } from '../../flow/flow-status';
import type { KvFlowStore, StoredFlow } from '../../flow/flow-store';
import { type MobileLinkOwner, type MobileLinkTake, type MobileLinks, sameLink } from '../../flow/qr-links';
import type { Locale } from '../../i18n';
import type { MobileQrView } from '../../pages';
import type { HostedDeps } from '../../web/deps';
import { sendPage, thisDevice } from '../../web/respond';
import { qrSvg } from './qr-image';

/**
 * Desktop to mobile, the one QR of every journey (sign-in, enrollment, registration): the desktop shows a QR of
 * a one-time link (links.ts) that a phone must open once and within its open time; the desktop's tab waits
 * (flow/flow-status.ts) and then follows the journey's continue URL. What the phone does once it opened the
 * link is the journey's: sign-in starts the phone's own flow (phone.ts), an enrollment or a registration binds
 * the phone's browser to the flow (bindPhone) and creates a passkey there.
 */

/** What a flow keeps of the QR it shows: the hash of its link, until when it may be opened, and if it was. */
export interface ShownQr {
  linkHash?: string;
  openBy?: number;
  openedAt?: number;
}

/** A QR drawn and never opened whose time is up: the flow ends or goes back, as its journey says. */
export const qrTimedOut = (qr: ShownQr | undefined, now: number): boolean =>
  !!qr?.openBy && !qr.openedAt && now >= qr.openBy;

/** When a waiting tab's QR runs out by itself (flowStatusHandler's readyBy): never once it was opened. */
export const qrReadyBy = (qr: ShownQr | undefined): number | undefined =>
  qr?.openedAt ? undefined : qr?.openBy;

/**
 * GET …/status of a tab waiting on its QR (flow/flow-status.ts): ready once the journey says it is `over` (the
 * phone proved the person, finished or cancelled) or the QR shown (`qrOf`) ran out unopened.
 */
export function qrStatusHandler<F extends { sessionKey: string }>(
  deps: Pick<HostedDeps, 'sessions' | 'now'>,
  flows: Pick<KvFlowStore<F & StoredFlow>, 'get' | 'watch'>,
  opts: { qrOf(flow: F): ShownQr | undefined; over(flow: F): boolean },
): RequestHandler {
  return flowStatusHandler<F>(
    deps.sessions,
    { load: (id) => flows.get(id), watch: (id, listener) => flows.watch(id, listener) },
    (flow) => opts.over(flow) || qrTimedOut(opts.qrOf(flow), deps.now()),
    { readyBy: (flow) => qrReadyBy(opts.qrOf(flow)), now: deps.now },
  );
}

/** May this taken link open the QR the flow shows now: unopened, the very link drawn last, still in time. */
export const linkOpens = (qr: ShownQr, taken: Extract<MobileLinkTake, { state: 'taken' }>, now: number) =>
  !qr.openedAt && sameLink(qr.linkHash, taken.linkHash) && now < (qr.openBy ?? 0);

/** The tenant and app a QR's link belongs to (kept with the link for the page of a spent one). */
function linkOwnerOf(flow: unknown): MobileLinkOwner | undefined {
  const owner = brandOwnerOf(flow);
  return owner && { tenantId: owner.tenantId, appId: owner.appId ?? '', appName: owner.appName ?? '' };
}

export interface QrPage {
  /** The flow the page is of (of any journey): its id, language, end and the QR it shows now. */
  flow: { id: string; locale: Locale; expiresAt: number; qr?: ShownQr };
  /** The flow's page: what the QR's link shows while it is not drawn (opened: only the wait). */
  base: string;
  links: MobileLinks;
  /** The path the phone opens: `<linkPrefix><token>`. */
  linkPrefix: string;
  /** The CSRF token of the page's forms (the browser session is ensured first where the journey needs it). */
  csrf(): Promise<string>;
  /** Keeps the new link's hash and open time on the flow (an earlier QR is dead from then on). */
  keep(qr: { linkHash: string; openBy: number }): Promise<unknown>;
  /** Records that this QR replaced one shown before (new_qr_generated). */
  redrawn(): Promise<void>;
  /** The journey's parts of the page; `continueUrl` is also where a QR whose time is up goes. */
  view: Pick<MobileQrView, 'appName' | 'statusUrl' | 'continueUrl'> &
    Partial<
      Pick<
        MobileQrView,
        'purpose' | 'cancelAction' | 'emailInsteadAction' | 'auxLink' | 'matchCode' | 'newCodeAction'
      >
    >;
  /** The answer must not be stored. */
  noStore?: boolean;
}

/**
 * The QR page. Each showing draws a new one-time link with its own open time (the flow keeps only its hash,
 * so an earlier QR cannot be shown again); once the phone opened one, only the wait is shown.
 */
export async function sendQrPage(deps: HostedDeps, res: Response, page: QrPage): Promise<void> {
  if (qrTimedOut(page.flow.qr, deps.now())) return res.redirect(303, page.view.continueUrl);
  const csrf = await page.csrf();
  let linkPath = '';
  let openBy: number | undefined;
  if (!page.flow.qr?.openedAt) {
    const { token, linkHash } = await page.links.issue(page.flow.id, linkOwnerOf(page.flow));
    linkPath = `${page.linkPrefix}${token}`;
    openBy = deps.now() + deps.qrOpenTimeoutMs;
    await page.keep({ linkHash, openBy });
    if (page.flow.qr?.linkHash) await page.redrawn();
  }
  const linkText = `${deps.authUrl.replace(/\/+$/, '')}${linkPath}`;
  sendPage(deps, page.noStore ? res.set('Cache-Control', 'no-store') : res, 'mobile-qr', page.flow.locale, {
    ...page.view,
    qrSvg: linkPath ? await qrSvg(linkText) : '',
    linkPath: linkPath || page.base,
    linkText,
    seconds: Math.round(deps.qrOpenTimeoutMs / 1000),
    csrf,
    expiresAt: page.flow.expiresAt,
    opened: Boolean(page.flow.qr?.openedAt),
    openBy,
  });
}

/** A flow whose phone side binds the phone's browser to it (an enrollment's, a registration's). */
interface PhoneBound {
  id: string;
  qr?: PhoneQr;
}

/**
 * GET <linkPrefix>:token of an enrollment or a registration: takes the one-time link and, when it opens the QR
 * the flow shows now (once, in time, and `accepts` the flow), binds the phone's own browser session and device
 * to the flow (only that browser drives the phone's pages from then on); else the journey's refusal page.
 */
export async function bindPhone<F extends PhoneBound>(
  deps: HostedDeps,
  req: Request,
  res: Response,
  opts: {
    links: MobileLinks;
    load(id: string): Promise<F | undefined>;
    accepts?(flow: F): boolean;
    save(flow: F): Promise<boolean>;
    refuse(flow?: F): void;
    /** The phone is bound: record it and send the phone on. */
    opened(flow: F): Promise<void>;
  },
): Promise<void> {
  res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
  const taken = await opts.links.take(String(req.params.token));
  if (taken.state !== 'taken') {
    // A spent link's page shows its app's brand: its flow's while it lasts, else the one kept with the link.
    if (taken.state === 'spent') await withBrandOf(deps, res, (await opts.load(taken.flowId)) ?? taken.owner);
    return opts.refuse();
  }
  const flow = await opts.load(taken.flowId);
  await withBrandOf(deps, res, flow);
  const qr = flow?.qr;
  const usable = !!flow && !!qr && (opts.accepts?.(flow) ?? true) && linkOpens(qr, taken, deps.now());
  if (!flow || !qr || !usable) return opts.refuse(flow);
  const session = await deps.sessions.ensure(req, res);
  const opened: PhoneQr = {
    ...qr,
    openedAt: deps.now(),
    phoneSessionKey: session.key,
    phoneDevice: thisDevice(deps, req, res),
  };
  if (!(await opts.save({ ...flow, qr: opened }))) return opts.refuse(flow);
  await opts.opened(flow);
}
