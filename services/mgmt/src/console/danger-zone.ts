import type { NextFunction, Request, Response } from 'express';
import { isAllowed } from '../admins/permissions';
import type { StepUpAction } from '../admins/step-up';
import { asyncRoute } from '../http/async-route';
import { ct } from '../i18n';
import { knownParts } from '../use-cases/people/summary';
import { type ConsoleDeps, type SignedIn, signedInOf } from './context';
import { ConsoleError } from './errors';
import { pageKit, requireRole, requireStepUp } from './page-kit';
import { passkeyTarget } from './page-people';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';
import { supportOf } from './support-view';

const P = CONSOLE_PATH;
/** The form field a confirmation step adds; a destructive POST without it changes nothing. */
export const CONFIRM_FIELD = 'confirm';

interface Danger {
  /** The POST path of the action (groups are the path's parameters, still percent-encoded). */
  path: RegExp;
  permission: Parameters<typeof isAllowed>[1];
  /** The step-up row the action is (checked before the confirmation too: it is no substitute). */
  stepUp?: StepUpAction;
  /** The catalog key of the button that led here: the confirm button carries the same name. */
  button: string;
  /** What breaks, in plain words. */
  breaks: string;
  /** The page to go back to on Cancel. */
  back: (m: string[]) => string;
  /**
   * What the action applies to (shown, and appended to the button's accessible name for table rows); none
   * found in this tenant is the 404 page, as the action itself would answer.
   */
  target?: (deps: ConsoleDeps, s: SignedIn, m: string[]) => Promise<string | Target | undefined>;
  /**
   * A row button's accessible name is "{button} {target}" (as on the page it came from), or the target's own
   * `name` when the row named it otherwise.
   */
  rowLabel?: boolean;
  /** Only some forms of the route destroy something (Block, not Unblock). */
  applies?: (body: Record<string, unknown>) => boolean;
}

/** What an action applies to, and the accessible name of the row button that led here when it differs. */
interface Target {
  text: string;
  name: string;
}

const dec = (v: string | undefined) => decodeURIComponent(v ?? '');
const appName = async (deps: ConsoleDeps, s: SignedIn, m: string[]) =>
  (await deps.dir.applications.get(s.tenant.tenantId, dec(m[1])))?.name;
const app = (m: string[]) => `${P}/applications/${m[1]}`;
const user = (m: string[]) => `${P}/users/${m[1]}`;

/** Every destructive console action (issue 37's list), asked once on a confirmation step. */
export const DANGERS: Danger[] = [
  {
    path: /^\/applications\/([^/]+)\/secret$/,
    permission: 'application.write',
    stepUp: 'application.rotateSecret',
    button: 'apps.rotate',
    breaks: 'danger.rotateSecret',
    back: app,
    target: appName,
  },
  {
    path: /^\/applications\/([^/]+)\/client-type$/,
    permission: 'application.write',
    stepUp: 'application.clientType',
    button: 'apps.changeClientType',
    breaks: 'danger.clientType',
    back: app,
    target: appName,
  },
  {
    path: /^\/applications\/([^/]+)\/remove$/,
    permission: 'application.write',
    stepUp: 'application.remove',
    button: 'apps.remove',
    breaks: 'danger.removeApplication',
    back: app,
    target: appName,
  },
  {
    path: /^\/credentials\/([^/]+)\/revoke$/,
    permission: 'credentials.write',
    stepUp: 'credentials.revoke',
    button: 'creds.confirm',
    breaks: 'danger.revokeCredentials',
    back: () => `${P}/credentials`,
    target: async (deps, s, m) => {
      const found = await deps.dir.credentials.get(s.tenant.tenantId, dec(m[1]));
      return found && found.revokedAt === undefined ? found.credentialsId : undefined;
    },
  },
  {
    path: /^\/administrators\/([^/]+)\/remove$/,
    permission: 'administrators.remove',
    stepUp: 'administrators.remove',
    button: 'admins.remove',
    breaks: 'danger.removeAdministrator',
    back: () => `${P}/administrators`,
    target: async (deps, s, m) =>
      (await deps.admins.accounts.get(s.tenant.tenantId, dec(m[1]).toLowerCase()))?.email,
    rowLabel: true,
  },
  {
    path: /^\/tokens\/([^/]+)\/revoke$/,
    permission: 'ownTokens.manage',
    stepUp: 'token.revoke',
    button: 'tokens.revoke',
    breaks: 'danger.revokeToken',
    back: () => `${P}/tokens`,
    target: async (deps, s, m) => {
      const token = (
        await deps.admins.tokens.list(
          s.tenant.tenantId,
          isAllowed(s.account.role, 'tokens.manageAll') ? undefined : s.session.email,
        )
      ).find((t) => t.tokenId === dec(m[1]) && t.revokedAt === undefined);
      // Another administrator's token: its row (the Owner's list of every token) says whose it is.
      if (!token || token.email === s.session.email) return token?.name;
      const name = ct(s.locale, 'tokens.revokeOf', { name: token.name, email: token.email });
      return { text: `${token.name} (${token.email})`, name };
    },
    rowLabel: true,
  },
  {
    path: /^\/branding\/reset$/,
    permission: 'branding.write',
    button: 'branding.reset',
    breaks: 'danger.resetBranding',
    back: () => `${P}/branding`,
  },
  {
    path: /^\/users\/([^/]+)\/devices\/([^/]+)\/block$/,
    permission: 'device.block',
    stepUp: 'device.block',
    button: 'device.block',
    breaks: 'danger.blockDevice',
    back: (m) => `${user(m)}#devices`,
    target: async (deps, s, m) => {
      const device = (await supportOf(deps.support).userDetail(s.tenant.tenantId, dec(m[1])))?.devices.find(
        (d) => d.deviceId === dec(m[2]),
      );
      // Named as on the person's page: without the parts the user agent did not say.
      return device && knownParts(device.name);
    },
    rowLabel: true,
    applies: (body) => body.allowAccess !== 'true',
  },
  {
    path: /^\/users\/([^/]+)\/remove$/,
    permission: 'user.remove',
    stepUp: 'user.remove',
    button: 'user.confirm',
    breaks: 'danger.removePerson',
    back: user,
    target: async (deps, s, m) =>
      (await supportOf(deps.support).userDetail(s.tenant.tenantId, dec(m[1])))?.email,
  },
  {
    path: /^\/users\/([^/]+)\/sign-out-everywhere$/,
    permission: 'user.signOutEverywhere',
    stepUp: 'user.signOutEverywhere',
    button: 'user.signOutEverywhere',
    breaks: 'danger.signOutEverywhere',
    back: (m) => `${user(m)}#sessions`,
    target: async (deps, s, m) =>
      (await supportOf(deps.support).userDetail(s.tenant.tenantId, dec(m[1])))?.email,
  },
  {
    path: /^\/users\/([^/]+)\/status$/,
    permission: 'user.disable',
    stepUp: 'user.disable',
    button: 'user.disable',
    breaks: 'danger.disableAccount',
    back: (m) => `${user(m)}#status`,
    target: async (deps, s, m) =>
      (await supportOf(deps.support).userDetail(s.tenant.tenantId, dec(m[1])))?.email,
    // Disabling is confirmed; enabling again gives access back and is not.
    applies: (body) => body.disabled !== 'false',
  },
  {
    path: /^\/users\/([^/]+)\/passkeys\/([^/]+)\/remove$/,
    permission: 'passkey.remove',
    stepUp: 'passkey.remove',
    button: 'passkey.remove',
    breaks: 'danger.removePasskey',
    back: (m) => `${user(m)}#passkeys`,
    // The confirm button keeps the name "Remove passkey": the passkey is named in the "Applies to" line.
    target: async (deps, s, m) =>
      passkeyTarget(s, await supportOf(deps.support).userDetail(s.tenant.tenantId, dec(m[1])), dec(m[2])),
  },
  {
    path: /^\/users\/([^/]+)\/phone\/remove$/,
    permission: 'phone.remove',
    stepUp: 'phone.remove',
    button: 'phone.remove',
    breaks: 'danger.removePhone',
    back: (m) => `${user(m)}#phone`,
    target: async (deps, s, m) => {
      const person = await supportOf(deps.support).userDetail(s.tenant.tenantId, dec(m[1]));
      return person && (person.phoneMasked ? `${person.email} (${person.phoneMasked})` : person.email);
    },
  },
];

/**
 * Mounted before the console's pages: a POST of a destructive action without `confirm=yes` changes nothing
 * and answers its confirmation step instead — the role and step-up checks first (a confirmation is no
 * substitute for a recent sign-in), then what will break, the same fields again with `confirm=yes`, a
 * confirm button named like the button that led here, and Cancel back to the page.
 */
export function dangerConfirmation(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const { show } = pageKit(deps, renderer);
  const confirm = asyncRoute(async (req: Request, res: Response) => {
    const path = req.path;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const danger = DANGERS.find((d) => d.path.test(path))!;
    const m = [...(path.match(danger.path) ?? [])];
    const s = signedInOf(res);
    requireRole(s, danger.permission);
    if (danger.stepUp) requireStepUp(deps, req, s, danger.stepUp);
    const found = danger.target && (await danger.target(deps, s, m));
    if (danger.target && found === undefined) throw new ConsoleError(404, 'error.notFound');
    const target = typeof found === 'object' ? found.text : found;
    const label = ct(s.locale, danger.button);
    show(res, 'confirmDanger', sectionOf(path), danger.button, {
      heading: ct(s.locale, 'danger.title', { action: label }),
      breaks: danger.breaks,
      target,
      action: `${P}${path}`,
      button: label,
      buttonName:
        typeof found === 'object' ? found.name : danger.rowLabel && target ? `${label} ${target}` : undefined,
      fields: Object.entries(body)
        .filter(([k, v]) => k !== 'csrf' && k !== CONFIRM_FIELD && typeof v === 'string')
        .map(([name, value]) => ({ name, value })),
      back: danger.back(m),
    });
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const danger = DANGERS.find((d) => d.path.test(req.path));
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!danger || body[CONFIRM_FIELD] === 'yes' || (danger.applies && !danger.applies(body))) {
      return next();
    }
    confirm(req, res, next);
  };
}

const sectionOf = (path: string) => path.split('/')[1] ?? '';
