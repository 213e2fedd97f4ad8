import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { isAllowed } from '../admins/permissions';
import { parse } from '../http/validate';
import { ct } from '../i18n';
import type { SupportUserDetail } from '../support/port';
import {
  addPerson,
  addPersonBody,
  removePersonPasskey,
  removePersonPhone,
} from '../use-cases/people/person-actions';
import type { ConsoleDeps, SignedIn } from './context';
import { ConsoleError } from './errors';
import { type FormSpec, type Problem, formErrors, refusalProblems, zodProblems } from './form-problems';
import { allowedRoute, pageKit } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';
import { supportOf, timeView, userHref } from './support-view';

const P = CONSOLE_PATH;
/** People per page of the Users page's list. */
export const PEOPLE_PAGE = 50;
const pathId = z.string().min(1).max(256);
/** A position in the list as the port hands it out (the admin API's people list accepts the same). */
const listCursor = z.object({
  cursor: z
    .string()
    .max(400)
    .regex(/^[\w-]+$/, 'is not a cursor of this list')
    .optional(),
});
export const ADD_PATH = `${P}/people/new`;
const ADD_FORM: FormSpec = {
  email: { id: 'person-email', label: 'people.email' },
  app: { id: 'person-app', label: 'people.app' },
};

/** The person page's notices (`?done=`) after removing a passkey or the phone number. */
export const PEOPLE_NOTICES: Record<string, string> = {
  passkeyRemoved: 'passkey.removed',
  phoneRemoved: 'phone.removed',
};

/**
 * The Users page with nothing searched (issue 38): the tenant's people newest first, PEOPLE_PAGE at a time,
 * with a Next page link carrying the port's cursor; a cursor that is not one is the 400 page.
 */
export async function peopleListView(deps: ConsoleDeps, s: SignedIn, req: Request, zone: string) {
  const { cursor } = parse(listCursor, { cursor: req.query.cursor }, 'query');
  const page = await supportOf(deps.support).listPeople(s.tenant.tenantId, PEOPLE_PAGE, cursor);
  return {
    people: page.people.map((p) => ({
      href: userHref(p.userId),
      email: p.email,
      created: timeView(p.createdAt, s.locale, zone),
      lastSignIn: p.lastSignIn === undefined ? undefined : timeView(p.lastSignIn, s.locale, zone),
      statusKey: p.disabled ? 'people.disabled' : 'people.active',
      disabled: p.disabled,
      passkeys: p.passkeys,
    })),
    ...(page.nextCursor
      ? { nextHref: `${P}/users?${new URLSearchParams({ cursor: page.nextCursor })}` }
      : {}),
    ...(cursor ? { firstHref: `${P}/users` } : {}),
  };
}

/** Whether the Users page offers Add a person. */
export const canAddPerson = (s: SignedIn) => isAllowed(s.account.role, 'person.add');

/**
 * The person page's created date, Passkeys (name from the authenticator model where known, created, last
 * used, the device it was made on, Remove passkey) and phone number (masked, Remove phone number), each
 * button only for the roles the permission table gives it.
 */
export function passkeysView(s: SignedIn, person: SupportUserDetail, zone: string) {
  const base = userHref(person.userId);
  return {
    created: person.createdAt === undefined ? undefined : timeView(person.createdAt, s.locale, zone),
    passkeys: (person.passkeys ?? []).map((k) => ({
      name: passkeyName(s, k.model),
      created: timeView(k.createdAt, s.locale, zone),
      // 0 or absent: never used to sign in since it was made.
      lastUsed: k.lastUsedAt ? timeView(k.lastUsedAt, s.locale, zone) : undefined,
      device: k.deviceName,
      removeAction: `${base}/passkeys/${encodeURIComponent(k.credentialId)}/remove`,
    })),
    canRemovePasskey: isAllowed(s.account.role, 'passkey.remove'),
    phone: person.phoneMasked,
    canRemovePhone: isAllowed(s.account.role, 'phone.remove'),
    phoneAction: `${base}/phone/remove`,
  };
}

const passkeyName = (s: SignedIn, model: string | undefined) => model || ct(s.locale, 'passkey.generic');

/** What the confirmation step says a passkey is: its name and the device it was made on. */
export function passkeyTarget(s: SignedIn, person: SupportUserDetail | undefined, credentialId: string) {
  const key = person?.passkeys?.find((k) => k.credentialId === credentialId);
  if (!key) return undefined;
  const name = passkeyName(s, key.model);
  return key.deviceName ? `${name} (${key.deviceName})` : name;
}

/**
 * Add a person (GET/POST /console/people/new: the registration link for an address and an application), and
 * the person page's Remove passkey and Remove phone number (after their Danger-zone confirmation).
 */
export function peoplePage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { show, emit, stepUp } = pageKit(deps, renderer);

  const addView = async (s: SignedIn, typed: { email?: unknown; app?: unknown }) => {
    const apps = await deps.dir.applications.list(s.tenant.tenantId);
    return {
      action: ADD_PATH,
      back: `${P}/users`,
      email: typeof typed.email === 'string' ? typed.email : '',
      apps: apps.map((a) => ({ value: a.appId, label: a.name, selected: a.appId === typed.app })),
    };
  };
  const showAdd = async (
    res: Response,
    s: SignedIn,
    typed: { email?: unknown; app?: unknown },
    extra: Record<string, unknown> = {},
    status = 200,
  ) => show(res, 'addPerson', 'users', 'people.add', { ...(await addView(s, typed)), ...extra }, status);

  router.get(
    '/people/new',
    allowedRoute('person.add', async (_req, res, s) => showAdd(res, s, {})),
  );

  router.post(
    '/people/new',
    allowedRoute(
      'person.add',
      async (req, res, s) => {
        const typed = { email: req.body?.email, app: req.body?.app };
        const refused = (problems: Problem[]) =>
          showAdd(res, s, typed, { ...formErrors(s.locale, ADD_FORM, problems) }, 400);
        const parsed = addPersonBody.safeParse(typed);
        if (!parsed.success) return refused(zodProblems(parsed.error));
        let sent: boolean;
        try {
          ({ sent } = await addPerson(
            deps,
            { tenantId: s.tenant.tenantId, clientIp: req.ip ?? '', ...parsed.data },
            emit(req, res),
          ));
        } catch (err) {
          // No such application, or one without a registration redirect URI: beside the Application field.
          return refused(refusalProblems(err, 'app'));
        }
        const notice = ct(s.locale, sent ? 'people.sent' : 'people.notSent', { email: parsed.data.email });
        await showAdd(res, s, {}, { notice });
      },
      stepUp('person.add'),
    ),
  );

  const personOf = async (s: SignedIn, userId: string) => {
    const person = await supportOf(deps.support).userDetail(s.tenant.tenantId, userId);
    if (!person) throw new ConsoleError(404, 'error.notFound');
    return person;
  };

  router.post(
    '/users/:userId/passkeys/:credentialId/remove',
    allowedRoute(
      'passkey.remove',
      async (req, res, s) => {
        const { userId, credentialId } = parse(
          z.object({ userId: pathId, credentialId: pathId }),
          req.params,
          'path',
        );
        await personOf(s, userId);
        await removePersonPasskey(
          deps,
          { tenantId: s.tenant.tenantId, userId, credentialId },
          emit(req, res),
        );
        res.redirect(303, `${userHref(userId)}?done=passkeyRemoved#passkeys`);
      },
      stepUp('passkey.remove'),
    ),
  );

  router.post(
    '/users/:userId/phone/remove',
    allowedRoute(
      'phone.remove',
      async (req, res, s) => {
        const { userId } = parse(z.object({ userId: pathId }), req.params, 'path');
        await personOf(s, userId);
        await removePersonPhone(deps, { tenantId: s.tenant.tenantId, userId }, emit(req, res));
        res.redirect(303, `${userHref(userId)}?done=phoneRemoved#phone`);
      },
      stepUp('phone.remove'),
    ),
  );
  return router;
}
