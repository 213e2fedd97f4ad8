import type { Flow } from '../../flow/flow';
import type { SignedIn } from '../../session/browser-session';
import type { FlowStepRecord } from '../../signin/flow-events';
import { proveBySession } from '../../signin/prove';
import type { HostedDeps } from '../../web/deps';
import { loginRequiredBy } from './checks';

/** A flow that starts on its first page: auth_start_oidc and desktop_login_page, in one publish. */
const FIRST_PAGE: readonly FlowStepRecord[] = [
  ['auth_start_oidc', { status: 'incomplete' }],
  ['desktop_login_page'],
];

/**
 * The one start of a sign-in, behind both /authorize adapters (the express route authorize.ts and the raw
 * first visit authorize-fast.ts): stores the new flow as pending (newFlow, after any location rule and the
 * per-IP allowance; FlowStore.createPending) and records its
 * start. A browser that already signed the person in for this tenant (`signedIn`, single sign-on) may be
 * proven by that session (signin/prove.ts proveBySession), unless a LOGIN_REQUIRED_CHECKS entry (checks.ts:
 * prompt login, max_age) asks for a fresh sign-in: the answer is then `continue`; else the flow shows its
 * first page, `identify`.
 */
export async function startSignIn(
  deps: Pick<HostedDeps, 'flows' | 'record' | 'recordSteps'> & Parameters<typeof proveBySession>[0],
  flow: Flow,
  signedIn?: SignedIn,
): Promise<'identify' | 'continue'> {
  await deps.flows.createPending(flow);
  if (!signedIn || loginRequiredBy(flow.request, signedIn, deps.now())) {
    await deps.recordSteps(flow, FIRST_PAGE);
    return 'identify';
  }
  await deps.record(flow, 'auth_start_oidc', { status: 'incomplete' });
  if (await proveBySession(deps, flow, signedIn)) return 'continue';
  await deps.record(flow, 'desktop_login_page');
  return 'identify';
}
