import { users } from '@sesame/proto';
import express from 'express';
import { z } from 'zod';
import { isAllowed } from '../admins/permissions';
import { parse } from '../http/validate';
import { ct } from '../i18n';
import { blockUserDevice } from '../use-cases/people/block-device';
import { searchQuery } from '../use-cases/people/query';
import { removePerson } from '../use-cases/people/remove-person';
import { knownParts } from '../use-cases/people/summary';
import type { ConsoleDeps, SignedIn } from './context';
import { ConsoleError } from './errors';
import { type FormSpec, formErrors, zodProblems } from './form-problems';
import { erasedView, noAccountMatches, noAccountResult } from './page-attempts';
import { allowedRoute, pageKit } from './page-kit';
import { ADD_PATH, PEOPLE_NOTICES, canAddPerson, passkeysView, peopleListView } from './page-people';
import { PERSON_ACCESS_NOTICES, personAccessView } from './person-access';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';
import { appNames, flowRow, supportOf, timeView, userHref, viewerZone, zoneView } from './support-view';

const P = CONSOLE_PATH;
/** Sign-ins shown on a person's page; older ones are on the Activity page filtered to them. */
const RECENT = 20;
const pathId = z.string().min(1).max(256);
const SEARCH_FORM: FormSpec = {
  query: { id: 'user-query', label: 'users.find' },
  app: { id: 'user-app', label: 'users.aliasOf' },
};

/**
 * Users: the tenant's people newest first (page-people.ts), find a person (email or its start, user ID or
 * alias), and their page: created, phone number and passkeys (page-people.ts), sessions and status
 * (person-access.ts), sign-ins newest first with outcomes in words, devices with Block / Unblock (as the admin
 * API's device block), and applications with Remove from application / Remove from tenant (spec 4.8's DELETE
 * users, confirmed; Administrators and Owners only).
 */
export function usersPage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { show, emit, stepUp } = pageKit(deps, renderer);

  router.get(
    '/users',
    allowedRoute('users.read', async (req, res, s) => {
      const support = supportOf(deps.support);
      const given = req.query.query !== undefined;
      const parsed = searchQuery.safeParse({ query: given ? req.query.query : '', app: req.query.app });
      if (!parsed.success) {
        // A refused search is the same page with what was typed and the problem beside its field.
        const apps = await appNames(deps.dir, s.tenant.tenantId);
        const typed = typeof req.query.query === 'string' ? req.query.query : '';
        const view = {
          query: typed,
          apps: [...apps].map(([value, label]) => ({ value, label, selected: value === req.query.app })),
          searched: false,
          users: [],
          ...(canAddPerson(s) ? { addHref: ADD_PATH } : {}),
          ...formErrors(s.locale, SEARCH_FORM, zodProblems(parsed.error)),
        };
        show(res, 'users', 'users', 'users.title', view, 400);
        return;
      }
      const { query, app } = parsed.data;
      // The app list and the search (or, with nothing searched, the list of people) at once.
      const [apps, found, listed] = await Promise.all([
        appNames(deps.dir, s.tenant.tenantId),
        query ? support.findUsers(s.tenant.tenantId, query, app) : [],
        query ? undefined : peopleListView(deps, s, req, viewerZone(req, res)),
      ]);
      show(res, 'users', 'users', 'users.title', {
        query,
        ...(canAddPerson(s) ? { addHref: ADD_PATH } : {}),
        ...(listed ? { listed: true, ...listed } : {}),
        apps: [...apps].map(([value, label]) => ({ value, label, selected: value === app })),
        searched: given && query !== '',
        users: found.map((u) => ({ ...u, href: userHref(u.userId), matchKey: `match.${u.matchedBy}` })),
        noAccount: query ? await noAccountResult(deps, s, query, found) : undefined,
        typedOnly: query ? await noAccountMatches(deps, s, query, found) : [],
        ...erasedView(s, req.query.erased, query),
      });
    }),
  );

  const personOf = async (s: SignedIn, userId: string) => {
    const person = await supportOf(deps.support).userDetail(s.tenant.tenantId, userId);
    if (!person) throw new ConsoleError(404, 'error.notFound');
    return person;
  };

  router.get(
    '/users/:userId',
    allowedRoute('users.read', async (req, res, s) => {
      const { userId } = parse(z.object({ userId: pathId }), req.params, 'path');
      const support = supportOf(deps.support);
      // The person, the app names and their sign-ins at once (the page waits for the slowest, not the sum); an
      // unknown person is still a 404, and the sign-ins read is of this tenant only.
      const [person, apps, page, sessions] = await Promise.all([
        personOf(s, userId),
        appNames(deps.dir, s.tenant.tenantId),
        support.listFlows(s.tenant.tenantId, { userId }, RECENT),
        support.userSessions(s.tenant.tenantId, userId),
      ]);
      const zone = viewerZone(req, res);
      const at = (ms: number | undefined) => (ms === undefined ? undefined : timeView(ms, s.locale, zone));
      const base = userHref(userId);
      const notice = {
        blocked: 'user.deviceChanged',
        removed: 'user.removed',
        ...PERSON_ACCESS_NOTICES,
        ...PEOPLE_NOTICES,
      }[String(req.query.done)];
      const sessionsEnded = Number.parseInt(String(req.query.n), 10) || 0;
      show(res, 'user', 'users', 'users.title', {
        title: person.email,
        user: person,
        ...(notice ? { notice: ct(s.locale, notice, { sessions: sessionsEnded }) } : {}),
        people: passkeysView(s, person, zone),
        access: personAccessView(s, person, sessions ?? [], zone),
        flows: page.flows.map((f) => flowRow(f, { locale: s.locale, zone, apps })),
        moreHref: `${P}/activity?${new URLSearchParams({ user: userId })}`,
        devices: person.devices.map((d) => ({
          ...d,
          // Words, not placeholders: what the user agent did not say is left out, not "Unknown".
          name: knownParts(d.name),
          os: knownParts(d.os),
          browser: knownParts(d.browser),
          firstSeen: at(d.firstSeen),
          lastSeen: at(d.lastSeen),
          blockAction: `${base}/devices/${encodeURIComponent(d.deviceId)}/block`,
        })),
        memberships: person.memberships.map((m) => ({
          ...m,
          firstLogin: at(m.firstLogin),
          lastLogin: at(m.lastLogin),
          removeHref: `${base}/remove?${new URLSearchParams({ app: m.appId })}`,
        })),
        canBlock: isAllowed(s.account.role, 'device.block'),
        canRemove: isAllowed(s.account.role, 'user.remove'),
        removeTenantHref: `${base}/remove`,
        zone: zoneView(req, zone),
      });
    }),
  );

  router.post(
    '/users/:userId/devices/:deviceId/block',
    allowedRoute(
      'device.block',
      async (req, res, s) => {
        const { userId, deviceId } = parse(
          z.object({ userId: pathId, deviceId: pathId }),
          req.params,
          'path',
        );
        const { allowAccess } = parse(
          z.object({ allowAccess: z.enum(['true', 'false']) }),
          { allowAccess: req.body?.allowAccess },
          'form',
        );
        await blockUserDevice(
          deps,
          { tenantId: s.tenant.tenantId, userId, deviceId, allowAccess: allowAccess === 'true' },
          emit(req, res),
        );
        res.redirect(303, `${userHref(userId)}?done=blocked#devices`);
      },
      stepUp('device.block'),
    ),
  );

  router.get(
    '/users/:userId/remove',
    allowedRoute('user.remove', async (req, res, s) => {
      const { userId } = parse(z.object({ userId: pathId }), req.params, 'path');
      const appId = typeof req.query.app === 'string' ? req.query.app : undefined;
      const person = await personOf(s, userId);
      const membership = appId ? person.memberships.find((m) => m.appId === appId) : undefined;
      if (appId && !membership) throw new ConsoleError(404, 'error.notFound');
      show(res, 'confirmRemoveUser', 'users', membership ? 'user.removeApp' : 'user.removeTenant', {
        email: person.email,
        ...(membership ? { app: { appId: membership.appId, name: membership.appName } } : {}),
        action: `${userHref(userId)}/remove`,
        back: userHref(userId),
      });
    }),
  );

  router.post(
    '/users/:userId/remove',
    allowedRoute(
      'user.remove',
      async (req, res, s) => {
        const { userId } = parse(z.object({ userId: pathId }), req.params, 'path');
        const { app } = parse(
          z.object({ app: pathId.optional() }),
          { app: req.body?.app || undefined },
          'form',
        );
        await personOf(s, userId);
        if (app && !(await deps.dir.applications.get(s.tenant.tenantId, app))) {
          throw new ConsoleError(404, 'error.notFound');
        }
        await removePerson(
          deps,
          {
            tenantId: s.tenant.tenantId,
            identifierType: users.UserIdentifierType.USER_IDENTIFIER_TYPE_USER_ID,
            identifier: userId,
            scope: app ? users.RemovalScope.REMOVAL_SCOPE_APP : users.RemovalScope.REMOVAL_SCOPE_TENANT,
            appId: app ?? '',
          },
          emit(req, res),
        );
        res.redirect(303, `${userHref(userId)}?done=removed#applications`);
      },
      stepUp('user.remove'),
    ),
  );
  return router;
}
