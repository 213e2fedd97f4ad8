import type { Request, Response } from 'express';
import type { FlowDevice } from '../flow/flow';
import type { HostedDeps } from './deps';

export { type ErrorReason, sendErrorPage, sendLinkInvalid, sendPage } from '../pages/respond';

export const originOf = (uri: string) => new URL(uri).origin;

/** The browser making this request: its device cookie (issued if new) and what its User-Agent says. */
export function thisDevice(deps: HostedDeps, req: Request, res: Response): FlowDevice {
  return { deviceId: deps.sessions.deviceId(req, res), facts: deps.deviceFacts(req.get('user-agent')) };
}

/** Where a proof (an email code, a link, a passkey) is made in this request: the browser's device and address. */
export function proofSource(
  deps: HostedDeps,
  req: Request,
  res: Response,
): { device: FlowDevice; clientIp: string } {
  return { device: thisDevice(deps, req, res), clientIp: req.ip ?? '' };
}

/**
 * For a page whose form may end at the RP through redirects (code → continue → redirect_uri, link confirm,
 * consent): Chrome applies form-action to each redirect after the POST, so the RP's origin must be listed.
 */
export const rpFormTarget = (flow: { request: { redirectUri: string } }) => [
  originOf(flow.request.redirectUri),
];

/**
 * A redirect to the RP's redirect_uri. It carries an authorization code or an error with the state, so no
 * cache (browser, proxy) may keep it: Cache-Control no-store (RFC 6749 5.1's rule for codes and tokens).
 */
export function redirectToRp(res: Response, location: string, status: 302 | 303 = 302): void {
  res.set('Cache-Control', 'no-store').redirect(status, location);
}
