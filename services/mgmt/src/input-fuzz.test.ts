import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type ConsoleFixture, signedIn, startConsole } from './testing/console-fixture';
import { ConsoleBrowser } from './testing/fake-provider';
import {
  type RawBody,
  formsOf,
  hostileFormValues,
  hostileValues,
  perFieldValues,
  plausible,
  rawBodies,
  storeSnapshot,
  unsafeStored,
} from './testing/fuzz-corpus';
import { type RouteEntry, paramsOf, routeTable } from './testing/route-table';
import { MemorySupport } from './testing/support-memory';

type Schema = Record<string, unknown> & {
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
};
type Doc = {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Path segments that are hostile on their own: a broken escape (express cannot decode it), long, traversal. */
const hostileSegments = ['%E0%A4%A', 'x'.repeat(2000), '%00%0D%0A%E2%80%AE'];
const hostileQueries = [
  'limit=1e308&cursor=%zz&from=%E0%A4&to=-1',
  'a[b][c][d][e][f][g]=1&app=x&app=y',
  `query=${'x'.repeat(5000)}`,
  'tz=%E0%A4%A&status=%E2%80%AE',
];

/**
 * Every console form and every admin and management API route, found in mgmt's router (a new route is fuzzed
 * without being listed here), gets control characters, bidi overrides, zero-width characters, over-long
 * values, wrong JSON types, wrong content types, broken encodings, invalid JSON and empty bodies, as an Owner
 * with a recent sign-in and a valid CSRF token: no answer is a 5xx, and a refused write (4xx) leaves every
 * store and the admin event stream as they were.
 */
describe('input fuzz: admin API and console', () => {
  let f: ConsoleFixture;
  let owner: ConsoleBrowser;
  let adminToken: string;
  let doc: Doc;
  let routes: RouteEntry[];
  const ids: Record<string, string> = {};
  const failures: string[] = [];
  const covered = new Set<string>();

  /** The fuzz table: a value for each path parameter a route may have. A new parameter name must be added here. */
  const params = (): Record<string, string> => ({
    tenantId: f.tenantId,
    appId: ids.appId!,
    credentialsId: ids.credentialsId!,
    tokenId: ids.tokenId!,
    email: 'other@acme.test',
    userId: 'user-1',
    deviceId: 'device-1',
    credentialId: 'passkey-1',
    userIdentifier: 'user-1',
    flowId: 'flow-1',
    mail: 'sign-in-code',
    locale: 'en',
    token: 'no-such-invitation',
    invitationId: 'no-such-invitation',
  });
  const fill = (path: string, override: Record<string, string> = {}) =>
    path.replace(/:(\w+)/g, (_m, name: string) => override[name] ?? encodeURIComponent(params()[name] ?? ''));

  beforeAll(async () => {
    f = await startConsole(
      [
        ['owner@acme.test', 'owner'],
        ['other@acme.test', 'administrator'],
      ],
      'Acme',
      { support: new MemorySupport() },
    );
    owner = await signedIn(f, 'owner@acme.test');
    adminToken = await f.h.adminToken(f.tenantId, 'owner@acme.test', 'owner');
    // Its first use stamps lastUsedAt once (the clock stands still): before any snapshot is taken.
    await f.h.asToken(adminToken, 'GET', '/api/v1/admin/tenants');
    // A second token of the Owner's: what the token routes act on (revoking it does not end the fuzzing).
    await f.h.adminToken(f.tenantId, 'owner@acme.test', 'owner');
    ids.tokenId = (await f.h.admins.tokens.list(f.tenantId, 'owner@acme.test')).at(-1)!.tokenId;
    const app = await f.h.createApp<{ appId: string }>(f.tenantId, {
      name: 'Shop',
      redirectUris: ['https://shop.test/cb'],
    });
    ids.appId = app.appId;
    const creds = await (await f.h.admin('POST', `/api/v1/admin/tenants/${f.tenantId}/credentials`)).json();
    ids.credentialsId = (creds as { credentialsId: string }).credentialsId;
    f.h.apiToken('fuzz-mgmt-token', { tenantId: f.tenantId, credentialsId: ids.credentialsId });
    f.h.peers.memberships.push({ tenantId: f.tenantId, appId: ids.appId, userId: 'user-1' });
    doc = (await (await fetch(`${f.h.url}/openapi.json`)).json()) as Doc;
    const seen = new Set<string>();
    routes = routeTable(f.h.routes).filter((r) => {
      const key = `${r.method} ${r.path}`;
      // `POST /console*` is the CSRF check of every console POST, not a route of its own.
      if (r.path.includes('*') || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  });
  afterAll(() => f.stop());

  /** Sends one request; a 5xx is a failure; a refused write must leave the stores and events unchanged. */
  async function probe(
    route: RouteEntry,
    what: string,
    url: string,
    init: { body?: string | Uint8Array; contentType?: string; headers?: Record<string, string> },
  ) {
    const mutating = MUTATING.has(route.method);
    const before = mutating ? await storeSnapshot(f.h.dir, f.h.admins) : '';
    const events = f.h.adminEvents.length;
    const res = await fetch(`${f.h.url}${url}`, {
      method: route.method,
      redirect: 'manual',
      headers: { ...init.headers, ...(init.contentType ? { 'content-type': init.contentType } : {}) },
      ...(route.method === 'GET' ? {} : { body: init.body ?? '' }),
    });
    await res.arrayBuffer();
    covered.add(`${route.method} ${route.path}`);
    if (res.status >= 500) failures.push(`${route.method} ${route.path} [${what}] → ${res.status}`);
    else if (mutating && res.status >= 400) {
      if ((await storeSnapshot(f.h.dir, f.h.admins)) !== before)
        failures.push(`${route.method} ${route.path} [${what}] → ${res.status} but the store changed`);
      if (f.h.adminEvents.length !== events)
        failures.push(
          `${route.method} ${route.path} [${what}] → ${res.status} but an admin event was published`,
        );
    }
    return res.status;
  }

  it('every route is in the fuzz table: its path parameters are known; each API route is in the OpenAPI document', () => {
    assert.ok(routes.length > 80, `${routes.length} routes`);
    const known = params();
    const missing = routes.flatMap((r) =>
      paramsOf(r.path)
        .filter((p) => !(p in known))
        .map((p) => `${r.method} ${r.path}: :${p}`),
    );
    assert.deepEqual(missing, [], 'add these path parameters to the fuzz table (params)');
    const undocumented = routes
      .filter((r) => r.path.startsWith('/api/'))
      .filter((r) => !doc.paths[r.path.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(
      undocumented,
      [],
      'API routes missing from the OpenAPI document (their body fields are fuzzed from it)',
    );
  });

  it('console: every form and page with hostile fields, broken bodies, paths and queries → no 5xx, refused writes store nothing, nothing unsafe is stored', async () => {
    const consoleRoutes = routes.filter((r) => r.path.startsWith('/console'));
    const cookie = { cookie: `sesame-console=${owner.cookie}` };
    const forms = new Map<string, Record<string, string>>();
    for (const r of consoleRoutes.filter((x) => x.method === 'GET')) {
      const res = await owner.get(fill(r.path));
      if ((res.headers.get('content-type') ?? '').startsWith('text/html'))
        for (const [action, fields] of formsOf(await res.text()))
          forms.set(action, { ...forms.get(action), ...fields });
      for (const q of hostileQueries)
        await probe(r, `?${q.slice(0, 30)}`, `${fill(r.path)}?${q}`, { headers: cookie });
      // Broken percent-escapes in the console's other cookies (the time zone) are ignored.
      await probe(r, 'hostile cookies', fill(r.path), {
        headers: { cookie: `${cookie.cookie}; sesame-console-tz=%E0%A4%A; x=%zz` },
      });
    }
    const csrf = ConsoleBrowser.csrfOf(await (await owner.get('/console/settings')).text());
    assert.ok(csrf, 'a CSRF token from the Settings page');
    const back = async () => {
      // A write that succeeded may have switched tenants (New tenant): come back to Acme.
      await owner.post('/console/tenant', { csrf, tenantId: f.tenantId });
    };
    // Sign-out ends the session the rest needs: it goes last.
    const posts = consoleRoutes
      .filter((r) => r.method === 'POST')
      .sort((a, b) => Number(a.path.endsWith('/signout')) - Number(b.path.endsWith('/signout')));
    for (const r of posts) {
      const url = fill(r.path);
      const form = { ...forms.get(url), csrf };
      const send = async (what: string, fields: Record<string, string | string[]>) => {
        const body = new URLSearchParams();
        for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
        const status = await probe(r, what, url, {
          body: body.toString(),
          contentType: 'application/x-www-form-urlencoded',
          headers: cookie,
        });
        if (status < 400) await back();
      };
      for (const field of Object.keys(form).filter((k) => k !== 'csrf'))
        for (const v of hostileFormValues)
          await send(`${field}=${JSON.stringify(v).slice(0, 30)}`, { ...form, [field]: v });
      for (const raw of [
        ...rawBodies,
        {
          what: 'a broken escape after a valid csrf',
          contentType: 'application/x-www-form-urlencoded',
          body: `csrf=${csrf}&name=%zz&email=%E0%A4`,
        } as RawBody,
      ])
        await probe(r, raw.what, url, {
          body: raw.body,
          headers: cookie,
          ...(raw.contentType ? { contentType: raw.contentType } : {}),
        });
      for (const name of paramsOf(r.path))
        for (const seg of hostileSegments)
          await probe(r, `:${name}=${seg.slice(0, 20)}`, fill(r.path, { [name]: seg }), {
            body: new URLSearchParams({ csrf }).toString(),
            contentType: 'application/x-www-form-urlencoded',
            headers: cookie,
          });
    }
    assert.deepEqual(await unsafeStored(f.h.dir, f.h.admins), [], 'names an accepted console write stored');
    assert.deepEqual(failures.slice(0, 60), [], `${failures.length} failures`);
  });

  it('admin and management APIs: hostile fields, broken bodies, paths and queries → no 5xx, refused writes store nothing, nothing unsafe is stored', async () => {
    const api = routes.filter((r) => !r.path.startsWith('/console'));
    // Removals last (the tenant itself at the very end): the rest needs the fixtures.
    const rank = (r: RouteEntry) =>
      r.method === 'DELETE' ? (r.path === '/api/v1/admin/tenants/:tenantId' ? 2 : 1) : 0;
    for (const r of [...api].sort((a, b) => rank(a) - rank(b))) {
      const auth = r.path.startsWith('/api/v1/admin')
        ? `Bearer ${adminToken}`
        : r.path.includes('/mgmt/')
          ? 'Bearer fuzz-mgmt-token'
          : undefined;
      const headers: Record<string, string> = auth ? { authorization: auth } : {};
      const url = fill(r.path);
      if (r.method === 'GET') {
        for (const q of hostileQueries) await probe(r, `?${q.slice(0, 30)}`, `${url}?${q}`, { headers });
      } else {
        const op = doc.paths[r.path.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
        let schema = op?.requestBody?.content?.['application/json']?.schema ?? {};
        if (typeof schema.$ref === 'string')
          schema = doc.components.schemas[schema.$ref.split('/').at(-1)!] ?? {};
        const props = schema.properties ?? {};
        const base = Object.fromEntries(
          (schema.required ?? []).map((k) => [k, plausible(k, props[k] ?? {})]),
        );
        const fields = Object.keys(props).length ? Object.keys(props) : ['name'];
        const json = (what: string, body: Record<string, unknown>) =>
          probe(r, what, url, { body: JSON.stringify(body), contentType: 'application/json', headers });
        for (const field of fields)
          for (const v of perFieldValues)
            await json(`${field}=${JSON.stringify(v)?.slice(0, 30)}`, { ...base, [field]: v });
        for (const v of hostileValues)
          await json(
            `every field=${JSON.stringify(v)?.slice(0, 30)}`,
            Object.fromEntries(fields.map((k) => [k, v])),
          );
        for (const raw of rawBodies)
          await probe(r, raw.what, url, {
            body: raw.body,
            headers,
            ...(raw.contentType ? { contentType: raw.contentType } : {}),
          });
      }
      for (const name of paramsOf(r.path))
        for (const seg of hostileSegments)
          await probe(r, `:${name}=${seg.slice(0, 20)}`, fill(r.path, { [name]: seg }), {
            headers,
            body: '{}',
            contentType: 'application/json',
          });
    }
    const missed = routes.map((r) => `${r.method} ${r.path}`).filter((k) => !covered.has(k));
    assert.deepEqual(missed, [], 'routes the fuzz never reached');
    assert.deepEqual(await unsafeStored(f.h.dir, f.h.admins), [], 'names an accepted API write stored');
    assert.deepEqual(failures.slice(0, 60), [], `${failures.length} failures`);
  });
});
