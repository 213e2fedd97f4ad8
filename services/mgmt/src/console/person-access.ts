import express from 'express';
import { z } from 'zod';
import { isAllowed } from '../admins/permissions';
import { parse } from '../http/validate';
import { type ConsoleLocale, ct } from '../i18n';
import type { SupportSession, SupportUserDetail } from '../support/port';
import { setAccountDisabled, signOutEverywhere } from '../use-cases/people/account-access';
import type { ConsoleDeps, SignedIn } from './context';
import { ConsoleError } from './errors';
import { allowedRoute, pageKit } from './page-kit';
import type { ConsoleRenderer } from './render';
import { supportOf, timeView, userHref } from './support-view';

const pathId = z.string().min(1).max(256);

/** The notices the person's page shows after these actions (`?done=`). */
export const PERSON_ACCESS_NOTICES: Record<string, string> = {
  signedOut: 'user.signedOut',
  disabled: 'user.disabledNotice',
  enabled: 'user.enabledNotice',
};

/**
 * The person page's Sessions and Status sections (templates-person-access.ts): each signed-in session in plain
 * words ("Chrome 156 on Linux", "Berlin, DE", started, last seen, its applications), Sign out everywhere, and
 * the account's status with Disable account / Enable account, each button only for the roles the permission
 * table gives it.
 */
export function personAccessView(
  s: SignedIn,
  person: SupportUserDetail,
  sessions: SupportSession[],
  zone: string,
) {
  const locale: ConsoleLocale = s.locale;
  const base = userHref(person.userId);
  return {
    sessions: sessions.map((session) => ({
      device: deviceWords(session) || ct(locale, 'session.unknownDevice'),
      place: session.place,
      started: timeView(session.startedAt, locale, zone),
      lastSeen: timeView(session.lastSeenAt, locale, zone),
      apps: session.apps.map((a) => a.name).join(', '),
    })),
    canSignOut: isAllowed(s.account.role, 'user.signOutEverywhere'),
    signOutAction: `${base}/sign-out-everywhere`,
    disabled: person.disabledAt !== undefined,
    disabledSince:
      person.disabledAt === undefined ? undefined : timeView(person.disabledAt, locale, zone).local,
    canDisable: isAllowed(s.account.role, 'user.disable'),
    statusAction: `${base}/status`,
  };
}

/** "Chrome 156 on Linux": the browser on the system, or on the device when the system is unknown. */
function deviceWords(session: SupportSession): string {
  return [session.browser, session.os || session.deviceName].filter(Boolean).join(' on ');
}

/**
 * POST /users/:userId/sign-out-everywhere and /users/:userId/status (disabled=true|false): the person page's
 * actions, after their Danger-zone confirmation (danger-zone.ts) and with their step-up rows.
 */
export function personAccessActions(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { emit, stepUp } = pageKit(deps, renderer);
  const personOf = async (s: SignedIn, userId: string) => {
    if (!(await supportOf(deps.support).userDetail(s.tenant.tenantId, userId)))
      throw new ConsoleError(404, 'error.notFound');
  };

  router.post(
    '/users/:userId/sign-out-everywhere',
    allowedRoute(
      'user.signOutEverywhere',
      async (req, res, s) => {
        const { userId } = parse(z.object({ userId: pathId }), req.params, 'path');
        await personOf(s, userId);
        const out = await signOutEverywhere(deps, { tenantId: s.tenant.tenantId, userId }, emit(req, res));
        res.redirect(303, `${userHref(userId)}?done=signedOut&n=${out.endedSessions}#sessions`);
      },
      stepUp('user.signOutEverywhere'),
    ),
  );

  router.post(
    '/users/:userId/status',
    allowedRoute(
      'user.disable',
      async (req, res, s) => {
        const { userId } = parse(z.object({ userId: pathId }), req.params, 'path');
        const { disabled } = parse(
          z.object({ disabled: z.enum(['true', 'false']) }),
          { disabled: req.body?.disabled },
          'form',
        );
        await personOf(s, userId);
        await setAccountDisabled(
          deps,
          { tenantId: s.tenant.tenantId, userId, disabled: disabled === 'true' },
          emit(req, res),
        );
        res.redirect(303, `${userHref(userId)}?done=${disabled === 'true' ? 'disabled' : 'enabled'}#status`);
      },
      stepUp('user.disable'),
    ),
  );
  return router;
}
