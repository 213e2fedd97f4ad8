import { MgmtError } from '@sesame/platform';
import type { AdminPrincipal } from './principal';

/** How recent a console sign-in must be for an action of the table below that needs one. */
export const STEP_UP_MS = 10 * 60_000;

/**
 * A row of the step-up table. `recentSignIn`: a console session must have signed in (authenticated at Sesame,
 * the ID token's auth_time) within STEP_UP_MS. `token`: what the admin API does with a personal API token,
 * which has no sign-in time: `refused` (403 step_up_required: only a console session with a recent sign-in may
 * do it), or `allowed` because the token itself was only made by such a session (token.create), lives at most
 * 366 days, is revocable by its administrator and every Owner of the tenant, and acts in its own tenant only.
 * The bootstrap key is refused by its own rules (authorize.ts) or acts under break-glass, which is logged.
 */
export interface StepUpRow {
  recentSignIn: boolean;
  token: 'refused' | 'allowed';
  why: string;
}

/**
 * THE table of which admin actions need a recent sign-in (the console) and which a personal API token may not
 * do (the admin API); checked in one place, stepUpRefusal, by both. Rows with `recentSignIn: false` are here to
 * say that they were weighed and left out.
 */
export const stepUpTable = {
  'token.create': {
    recentSignIn: true,
    token: 'refused',
    why: 'a new credential acting as its administrator for up to 366 days; a token must not outlive its parent',
  },
  'token.revoke': { recentSignIn: true, token: 'allowed', why: 'ends an administrator’s automation' },
  'token.revokeOther': {
    recentSignIn: true,
    token: 'allowed',
    why: 'an Owner ends another administrator’s automation',
  },
  'administrators.invite': {
    recentSignIn: true,
    token: 'allowed',
    why: 'grants access to the tenant (an Owner invitation is a takeover once accepted)',
  },
  'administrators.changeRole': { recentSignIn: true, token: 'allowed', why: 'grants or takes away access' },
  'administrators.remove': { recentSignIn: true, token: 'allowed', why: 'takes away access' },
  'application.create': {
    recentSignIn: true,
    token: 'allowed',
    why: 'a new client with its redirect URIs and, once, its secret',
  },
  'application.redirects': {
    recentSignIn: true,
    token: 'allowed',
    why: 'redirect, post-logout, back-channel, CIBA notification, registration and aux-link URIs say where codes, tokens and links go',
  },
  'application.settings': {
    recentSignIn: false,
    token: 'allowed',
    why: 'name, scopes, link validity, refresh-token lifetimes: nothing is sent anywhere new',
  },
  'application.clientType': {
    recentSignIn: true,
    token: 'allowed',
    why: 'a new client secret is shown, or the secret is removed',
  },
  'application.rotateSecret': { recentSignIn: true, token: 'allowed', why: 'a new client secret is shown' },
  'application.remove': {
    recentSignIn: true,
    token: 'allowed',
    why: 'ends every sign-in to the application',
  },
  'credentials.create': { recentSignIn: true, token: 'allowed', why: 'a new API secret is shown' },
  'credentials.revoke': { recentSignIn: true, token: 'allowed', why: 'ends an integration' },
  'tenant.create': {
    recentSignIn: true,
    token: 'allowed',
    why: 'makes its creator an Owner of a new tenant',
  },
  'tenant.rename': { recentSignIn: false, token: 'allowed', why: 'a display name' },
  'riskRule.write': {
    recentSignIn: true,
    token: 'allowed',
    why: 'blocked countries decide who may sign in at all',
  },
  'device.block': {
    recentSignIn: true,
    token: 'allowed',
    why: 'blocking locks a person out; unblocking lets a suspect device back in',
  },
  'user.remove': { recentSignIn: true, token: 'allowed', why: 'ends a person’s access and refresh tokens' },
  'branding.links': {
    recentSignIn: true,
    token: 'allowed',
    why: 'the support and privacy links on the sign-in pages send people elsewhere',
  },
  'branding.look': {
    recentSignIn: false,
    token: 'allowed',
    why: 'colours, logo, names and mail wording: no link to anywhere new',
  },
  'user.signOutEverywhere': {
    recentSignIn: true,
    token: 'allowed',
    why: 'ends every session and refresh token of a person',
  },
  'user.disable': {
    recentSignIn: true,
    token: 'allowed',
    why: 'disabling locks a person out of every app of the tenant; enabling lets them back in',
  },
  'passkey.remove': {
    recentSignIn: true,
    token: 'allowed',
    why: 'takes a way to sign in away from a person',
  },
  'phone.remove': {
    recentSignIn: true,
    token: 'allowed',
    why: 'takes a way to get codes away from a person',
  },
  'person.add': {
    recentSignIn: true,
    token: 'allowed',
    why: 'sends a registration link: whoever reads that mailbox gets an account in the tenant',
  },
} as const satisfies Record<string, StepUpRow>;
export type StepUpAction = keyof typeof stepUpTable;

/** Who attempts a table action: a console session (when it last signed in), or an admin API credential. */
export type StepUpCaller = { kind: 'console'; signedInAt: number } | AdminPrincipal;

/** Why `caller` may not do `action` now, or undefined when it may. The one check of the table. */
export function stepUpRefusal(action: StepUpAction, caller: StepUpCaller, now: number): string | undefined {
  const row: StepUpRow = stepUpTable[action];
  if (caller.kind === 'console') {
    return row.recentSignIn && now - caller.signedInAt > STEP_UP_MS
      ? `${action} needs a sign-in within the last ${STEP_UP_MS / 60_000} minutes`
      : undefined;
  }
  if (caller.kind === 'token' && row.token === 'refused') {
    return `a personal API token may not do ${action}: only a console session with a recent sign-in may`;
  }
  return undefined;
}

/** The admin API's answer to a refused table action: 403 step_up_required naming it. */
export function assertStepUp(action: StepUpAction, caller: StepUpCaller, now: number): void {
  const refusal = stepUpRefusal(action, caller, now);
  if (refusal) throw new MgmtError(403, 'step_up_required', refusal);
}

/** The application fields whose change is application.redirects (the rest is application.settings). */
export const REDIRECT_FIELDS = [
  'redirectUris',
  'postLogoutRedirectUris',
  'backchannelLogoutUri',
  'ciba',
  'registrationRedirectUri',
  'auxLinkPrefix',
] as const;

/** The branding fields whose change is branding.links (the rest is branding.look). */
export const BRANDING_LINK_FIELDS = ['supportUrl', 'privacyUrl'] as const;

/** A field's value as compared: absent, null, '' and [] alike; CIBA by where it sends (mode, endpoint). */
function comparable(field: string, v: unknown): string {
  if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) return 'null';
  if (field === 'ciba' && typeof v === 'object') {
    const { mode, notificationEndpoint } = v as { mode?: unknown; notificationEndpoint?: unknown };
    return JSON.stringify([mode ?? null, notificationEndpoint ?? null]);
  }
  return JSON.stringify(v);
}

/**
 * Whether setting `next` changes any of `fields` of `current` (a field absent from `next` is kept). Clearing a
 * field is a change too: it still changes where things go.
 */
export function touches(current: object, next: object, fields: readonly string[]): boolean {
  const [was, will] = [current as Record<string, unknown>, next as Record<string, unknown>];
  return fields.some((f) => f in will && comparable(f, will[f]) !== comparable(f, was[f]));
}
