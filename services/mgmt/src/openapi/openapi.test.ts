import assert from 'node:assert/strict';
const support = new MemorySupport();
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { interactiveAuthorization } from '@sesame/platform';
import addFormats from 'ajv-formats';
import Ajv2020 from 'ajv/dist/2020';
import { ADMIN_KEY, type MgmtHarness, startMgmt } from '../testing/mgmt-harness';
import { supportData } from '../testing/support-data';
import { MemorySupport } from '../testing/support-memory';

type Doc = { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
const DOC_ID = 'https://sesame.test/openapi.json';
const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

describe('OpenAPI document: real responses match it', () => {
  let h: MgmtHarness;
  let doc: Doc;
  let ajv: Ajv2020;
  const checked = new Set<string>();

  /** Validates a real response against the document's schema for its path template, method and status. */
  async function conforms(res: Response, method: string, template: string): Promise<Record<string, unknown>> {
    const body = (await res.json()) as Record<string, unknown>;
    const status = String(res.status);
    const op = doc.paths[template]?.[method.toLowerCase()];
    assert.ok(op, `${method} ${template} is not in the document`);
    assert.ok(op.responses[status], `${method} ${template} does not document status ${status}`);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const ref = `${DOC_ID}#/${pointer('paths', template, method.toLowerCase(), 'responses', status, 'content', 'application/json', 'schema')}`;
    const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
    assert.ok(
      validate(body),
      `${method} ${template} ${status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`,
    );
    checked.add(`${method} ${template} ${status}`);
    return body;
  }

  beforeAll(async () => {
    h = await startMgmt({}, { support });
    const res = await fetch(`${h.url}/openapi.json`);
    assert.equal(res.status, 200);
    doc = (await res.json()) as Doc;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, DOC_ID);
  });
  afterAll(() => h.stop());

  it('is an OpenAPI 3.1 document whose every response schema compiles under JSON Schema 2020-12', () => {
    assert.equal(doc.openapi, '3.1.0');
    let schemas = 0;
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (method === 'parameters') continue;
        for (const status of Object.keys(op.responses)) {
          ajv.compile({
            $ref: `${DOC_ID}#/${pointer('paths', template, method, 'responses', status, 'content', 'application/json', 'schema')}`,
          });
          schemas++;
        }
      }
    }
    assert.ok(schemas > 30, `${schemas} response schemas`);
  });

  it('admin API responses (success and errors) match their schemas', async () => {
    const T = '/api/v1/admin/tenants';
    const tenant = await conforms(await h.admin('POST', T, { name: 'Acme' }), 'POST', T);
    await conforms(await h.admin('POST', T, { name: '' }), 'POST', T);
    await conforms(await fetch(`${h.url}${T}`), 'GET', T);
    await conforms(await h.admin('GET', T), 'GET', T);
    const tid = String(tenant.tenantId);
    const TI = '/api/v1/admin/tenants/{tenantId}';
    await conforms(await h.admin('GET', `${T}/${tid}`), 'GET', TI);
    await conforms(await h.admin('GET', `${T}/nope`), 'GET', TI);
    await conforms(await h.admin('PATCH', `${T}/${tid}`, { name: 'Acme 2' }), 'PATCH', TI);

    const A = `${TI}/applications`;
    const apps = `${T}/${tid}/applications`;
    const app = await conforms(
      await h.admin('POST', apps, {
        name: 'Shop',
        redirectUris: ['https://shop.example/cb'],
        ciba: { mode: 'ping', notificationEndpoint: 'https://shop.example/ciba' },
        auxLinkPrefix: 'https://shop.example/aux/',
        registrationRedirectUri: 'https://shop.example/reg',
      }),
      'POST',
      A,
    );
    await conforms(await h.admin('POST', apps, { name: 'SPA', public: true }), 'POST', A);
    await conforms(await h.admin('POST', apps, { name: 'x', redirectUris: ['/rel'] }), 'POST', A);
    await conforms(await h.admin('GET', apps), 'GET', A);
    const AI = `${A}/{appId}`;
    await conforms(await h.admin('GET', `${apps}/${app.appId}`), 'GET', AI);
    await conforms(await h.admin('PATCH', `${apps}/${app.appId}`, { auxLinkPrefix: null }), 'PATCH', AI);
    await conforms(await h.admin('DELETE', `${apps}/${app.appId}`), 'DELETE', AI);
    await conforms(await h.admin('DELETE', `${apps}/${app.appId}`), 'DELETE', AI);

    const C = `${TI}/credentials`;
    const creds = await conforms(await h.admin('POST', `${T}/${tid}/credentials`), 'POST', C);
    await conforms(await h.admin('GET', `${T}/${tid}/credentials`), 'GET', C);
    await conforms(
      await h.admin('DELETE', `${T}/${tid}/credentials/${creds.credentialsId}`),
      'DELETE',
      `${C}/{credentialsId}`,
    );
    await conforms(
      await h.admin('DELETE', `${T}/${tid}/credentials/${creds.credentialsId}`),
      'DELETE',
      `${C}/{credentialsId}`,
    );

    h.peers.memberships.push({ tenantId: tid, appId: 'a', userId: 'u' });
    const B = `${TI}/users/{userId}/devices/{deviceId}/block`;
    await conforms(await h.admin('POST', `${T}/${tid}/users/u/devices/d/block`, {}), 'POST', B);
    await conforms(await h.admin('POST', `${T}/${tid}/users/x/devices/d/block`, {}), 'POST', B);
    await conforms(await h.admin('POST', '/api/v1/admin/keys/rotate'), 'POST', '/api/v1/admin/keys/rotate');
    const R = `${TI}/risk-rules/blocked-countries`;
    const rule = `${T}/${tid}/risk-rules/blocked-countries`;
    await conforms(await h.admin('PUT', rule, { countries: ['kp', 'RU'] }), 'PUT', R);
    await conforms(await h.admin('PUT', rule, { countries: ['XX'] }), 'PUT', R);
    await conforms(await h.admin('GET', rule), 'GET', R);
    await conforms(await h.admin('GET', `${T}/nope/risk-rules/blocked-countries`), 'GET', R);
    await conforms(await h.admin('DELETE', rule), 'DELETE', R);

    const busy = await h.admin('POST', apps, { name: 'Keep' });
    assert.equal(busy.status, 201);
    await conforms(await h.admin('DELETE', `${T}/${tid}`), 'DELETE', TI);
  });

  it('DELETE users responses match their schemas', async () => {
    const tenantId = await h.createTenant('M');
    const { credentialsId } = (await (
      await h.admin('POST', `/api/v1/admin/tenants/${tenantId}/credentials`)
    ).json()) as {
      credentialsId: string;
    };
    h.apiToken('tok', { tenantId, credentialsId }, 60);
    h.peers.memberships.push({ tenantId, appId: 'a', userId: 'gone' });
    const U = '/api/v1/mgmt/users/{userIdentifier}';
    const call = (id: string, qs: string, token = 'tok') =>
      fetch(`${h.url}/api/v1/mgmt/users/${id}?${qs}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
    await conforms(
      await call('gone', `userIdentifierType=user_id&scope=tenant&credentialsId=${credentialsId}`),
      'DELETE',
      U,
    );
    await conforms(
      await call('gone', `userIdentifierType=user_id&scope=tenant&credentialsId=${credentialsId}`),
      'DELETE',
      U,
    );
    await conforms(
      await call('x', `userIdentifierType=bad&scope=tenant&credentialsId=${credentialsId}`),
      'DELETE',
      U,
    );
    await conforms(
      await call('x', `userIdentifierType=user_id&scope=tenant&credentialsId=${credentialsId}`, 'bad'),
      'DELETE',
      U,
    );
  });

  it('send-activation responses match their schemas', async () => {
    const tenantId = await h.createTenant('S');
    const app = {
      name: 'S',
      redirectUris: ['https://s.example/cb'],
      registrationRedirectUri: 'https://s.example/r',
    };
    const { clientId } = (await (
      await h.admin('POST', `/api/v1/admin/tenants/${tenantId}/applications`, app)
    ).json()) as { clientId: string };
    const { credentialsId } = (await (
      await h.admin('POST', `/api/v1/admin/tenants/${tenantId}/credentials`)
    ).json()) as { credentialsId: string };
    h.apiToken('send-tok', { tenantId, credentialsId }, 60);
    const P = '/api/v1/mgmt/send-activation';
    const send = (body: Record<string, unknown>, token = 'send-tok') =>
      fetch(`${h.url}${P}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const body = {
      clientId,
      credentialsId,
      userEmail: 'ada@example.com',
      scopes: ['email'],
      verifications: ['ts.svc.iac.email'],
      alias: { type: 'email' },
    };
    await conforms(await send(body), 'POST', P);
    await conforms(await send({ ...body, alias: undefined }), 'POST', P);
    await conforms(await send(body, 'bad'), 'POST', P);
    await conforms(await send({ ...body, clientId: 'unknown' }), 'POST', P);
    h.peers.takenAliases.add('taken');
    await conforms(await send({ ...body, alias: { type: 'alias', value: 'taken' } }), 'POST', P);
    const I = '/api/v1/admin/tenants/{tenantId}/applications/{appId}/invitations';
    const { applications } = (await (
      await h.admin('GET', `/api/v1/admin/tenants/${tenantId}/applications`)
    ).json()) as { applications: { appId: string }[] };
    const invitations = `/api/v1/admin/tenants/${tenantId}/applications/${applications[0]?.appId}/invitations`;
    const { clientId: _c, credentialsId: _k, ...invitation } = body;
    await conforms(await h.admin('POST', invitations, invitation), 'POST', I);
    await conforms(await h.admin('POST', invitations, { ...invitation, scopes: 'email' }), 'POST', I);
    await conforms(
      await h.admin('POST', `${invitations.replace(/[^/]+\/invitations$/, 'nope')}/invitations`, invitation),
      'POST',
      I,
    );
  });

  it('activity-logs and admin-logs responses (behind the bearer middleware) match their schemas', async () => {
    const tenantId = await h.createTenant('L');
    const { appId } = await h.createApp<{ appId: string }>(tenantId, { name: 'L' });
    const { credentialsId } = (await (
      await h.admin('POST', `/api/v1/admin/tenants/${tenantId}/credentials`)
    ).json()) as {
      credentialsId: string;
    };
    h.apiToken('logs', { tenantId, credentialsId }, 60);
    const headers = { authorization: 'Bearer logs', 'content-type': 'application/json' };
    const AL = '/api/v1/mgmt/activity-logs';
    const post = (body: unknown, auth = headers) =>
      fetch(`${h.url}${AL}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    await conforms(await post({ appId, credentialsId, timeStart: 0, timeEnd: 10 }), 'POST', AL);
    await conforms(await post({ appId: 'other', credentialsId, timeStart: 0, timeEnd: 10 }), 'POST', AL);
    await conforms(await post({ appId, credentialsId }), 'POST', AL);
    await conforms(
      await post(
        { appId, credentialsId, timeStart: 0, timeEnd: 10 },
        { ...headers, authorization: 'Bearer x' },
      ),
      'POST',
      AL,
    );
    const ADL = '/api/vbeta/mgmt/admin-logs';
    const get = (qs: string) => fetch(`${h.url}${ADL}?${qs}`, { headers });
    await conforms(await get(`fromTime=0&toTime=10&credentialsId=${credentialsId}`), 'GET', ADL);
    await conforms(await get('fromTime=0&toTime=10&credentialsId=someone-else'), 'GET', ADL);
    await conforms(await get(`fromTime=10&toTime=0&credentialsId=${credentialsId}`), 'GET', ADL);
  });

  it('interactive init and client-secret rotation responses match their schemas', async () => {
    const tid = await h.createTenant('I');
    const apps = `/api/v1/admin/tenants/${tid}/applications`;
    const app = (await (
      await h.admin('POST', apps, { name: 'Shop', redirectUris: ['https://shop.example/cb'] })
    ).json()) as {
      appId: string;
      clientId: string;
    };
    const spa = (await (
      await h.admin('POST', apps, { name: 'SPA', public: true, redirectUris: ['http://localhost:3000/cb'] })
    ).json()) as { appId: string };
    const R = '/api/v1/admin/tenants/{tenantId}/applications/{appId}/client-secret';
    const rotated = await conforms(await h.admin('POST', `${apps}/${app.appId}/client-secret`), 'POST', R);
    await conforms(await h.admin('POST', `${apps}/${spa.appId}/client-secret`), 'POST', R);
    await conforms(await h.admin('POST', `${apps}/nope/client-secret`), 'POST', R);
    await conforms(
      await h.admin('POST', `${apps}/${app.appId}/client-secret`, undefined, { authorization: 'Bearer x' }),
      'POST',
      R,
    );
    h.peers.tokens.set('user-token', {
      tenantId: tid,
      credentialsId: '',
      scope: 'openid',
      expiresAt: h.clock.now() / 1000 + 60,
      sub: 'u1',
      clientId: app.clientId,
    });
    const I = '/api/v1/interactive/init';
    const init = (body: unknown, secret = String(rotated.clientSecret)) =>
      fetch(`${h.url}${I}`, {
        method: 'POST',
        headers: {
          authorization: interactiveAuthorization(
            {
              accessToken: 'user-token',
              body: JSON.stringify(body),
              timestamp: Math.floor(h.clock.now() / 1000),
            },
            secret,
          ),
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    await conforms(
      await init({ redirect_uri: 'https://shop.example/cb', purpose: 'device_enrollment' }),
      'POST',
      I,
    );
    await conforms(await init({ redirect_uri: 'https://shop.example/cb', purpose: 'other' }), 'POST', I);
    await conforms(
      await init({ redirect_uri: 'https://shop.example/cb', purpose: 'device_enrollment' }, 'wrong'),
      'POST',
      I,
    );
    assert.deepEqual((doc.paths[I]?.post as unknown as { servers: unknown }).servers, [
      { url: 'http://localhost:8080' },
    ]);
  });

  it('administrators, invitations and personal API token responses match their schemas', async () => {
    const T = '/api/v1/admin/tenants';
    const created = await conforms(
      await h.admin('POST', T, { name: 'Adm', ownerEmail: 'first@adm.test' }),
      'POST',
      T,
    );
    const tid = created.tenantId as string;
    const owner = await h.adminToken(tid, 'owner@adm.test', 'owner');
    const support = await h.adminToken(tid, 'support@adm.test', 'support');
    const AL = `${T}/{tenantId}/administrators`;
    const AI = `${AL}/{email}`;
    const IN = `${T}/{tenantId}/invitations`;
    const TK = `${T}/{tenantId}/tokens`;
    const TI = `${TK}/{tokenId}`;
    await conforms(await h.asToken(owner, 'GET', `${T}/${tid}/administrators`), 'GET', AL);
    await conforms(await h.asToken(support, 'GET', `${T}/${tid}/administrators`), 'GET', AL);
    await conforms(
      await h.admin('POST', `${T}/${tid}/administrators`, { email: 'd@adm.test', role: 'owner' }),
      'POST',
      AL,
    );
    await conforms(
      await h.admin('POST', `${T}/${tid}/administrators`, { email: 'd@adm.test', role: 'owner' }),
      'POST',
      AL,
    );
    await conforms(
      await h.asToken(owner, 'POST', `${T}/${tid}/invitations`, { email: 'n@adm.test', role: 'support' }),
      'POST',
      IN,
    );
    await conforms(
      await h.asToken(owner, 'POST', `${T}/${tid}/invitations`, { email: 'n@adm.test', role: 'boss' }),
      'POST',
      IN,
    );
    await conforms(await h.asToken(owner, 'GET', `${T}/${tid}/invitations?status=all`), 'GET', IN);
    await conforms(await h.asToken(owner, 'GET', `${T}/${tid}/invitations?status=x`), 'GET', IN);
    const IC = `${IN}/{invitationId}`;
    const pending = (await h.admins.invitations.list(tid)).find((i) => i.email === 'n@adm.test')!;
    await conforms(
      await h.asToken(owner, 'DELETE', `${T}/${tid}/invitations/${pending.invitationId}`),
      'DELETE',
      IC,
    );
    await conforms(
      await h.asToken(owner, 'DELETE', `${T}/${tid}/invitations/${pending.invitationId}`),
      'DELETE',
      IC,
    );
    await conforms(await h.asToken(owner, 'DELETE', `${T}/${tid}/invitations/none`), 'DELETE', IC);
    for (let i = 0; i < 10; i++) {
      await h.asToken(owner, 'POST', `${T}/${tid}/invitations`, { email: 'many@adm.test', role: 'support' });
    }
    await conforms(
      await h.asToken(owner, 'POST', `${T}/${tid}/invitations`, { email: 'many@adm.test', role: 'support' }),
      'POST',
      IN,
    );
    await conforms(
      await h.asToken(owner, 'PATCH', `${T}/${tid}/administrators/support@adm.test`, {
        role: 'administrator',
      }),
      'PATCH',
      AI,
    );
    await conforms(
      await h.asToken(owner, 'PATCH', `${T}/${tid}/administrators/owner@adm.test`, { role: 'support' }),
      'PATCH',
      AI,
    );
    await conforms(
      await h.asToken(owner, 'DELETE', `${T}/${tid}/administrators/support@adm.test`),
      'DELETE',
      AI,
    );
    await conforms(
      await h.asToken(owner, 'DELETE', `${T}/${tid}/administrators/none@adm.test`),
      'DELETE',
      AI,
    );
    // A token may not make tokens (403 step_up_required); the console makes them.
    await conforms(await h.asToken(owner, 'POST', `${T}/${tid}/tokens`, { name: 'ci' }), 'POST', TK);
    await h.adminToken(tid, 'owner@adm.test', 'owner');
    const tok = (await h.admins.tokens.list(tid, 'owner@adm.test')).at(-1)!;
    await conforms(await h.asToken(owner, 'GET', `${T}/${tid}/tokens`), 'GET', TK);
    await conforms(await h.asToken(owner, 'GET', `${T}/${tid}/tokens?all=true`), 'GET', TK);
    await conforms(await h.asToken(owner, 'GET', `${T}/${tid}/tokens?all=yes`), 'GET', TK);
    await conforms(await h.asToken(owner, 'DELETE', `${T}/${tid}/tokens/${tok.tokenId}`), 'DELETE', TI);
    await conforms(await h.asToken(owner, 'DELETE', `${T}/${tid}/tokens/${tok.tokenId}`), 'DELETE', TI);
    await conforms(await h.asToken('sesame_pat_nope', 'GET', `${T}/${tid}/tokens`), 'GET', TK);
  });

  it('branding, logo and mail template responses match their schemas', async () => {
    const tid = await h.createTenant('Branded');
    const app = await h.createApp<{ appId: string }>(tid, {
      name: 'Shop',
      redirectUris: ['https://shop.example/cb'],
    });
    const B = '/api/v1/admin/tenants/{tenantId}/branding';
    const A = '/api/v1/admin/tenants/{tenantId}/applications/{appId}/branding';
    const T = '/api/v1/admin/tenants/{tenantId}/branding/mail-templates/{mail}/{locale}';
    const logo = (url: string, type: string, body: string) =>
      fetch(`${h.url}${url}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': type },
        body,
      });
    for (const [template, path] of [
      [B, `/api/v1/admin/tenants/${tid}/branding`],
      [A, `/api/v1/admin/tenants/${tid}/applications/${app.appId}/branding`],
    ] as const) {
      await conforms(await h.admin('GET', path), 'GET', template);
      await conforms(
        await h.admin('PUT', path, {
          displayName: 'ACME',
          light: { accent: '#1d4ed8', background: '#ffffff' },
        }),
        'PUT',
        template,
      );
      await conforms(
        await h.admin('PUT', path, { light: { accent: '#ffff00', background: '#ffffff' } }),
        'PUT',
        template,
      );
      await conforms(
        await logo(`${path}/logo`, 'image/svg+xml', '<svg><rect width="1"/></svg>'),
        'PUT',
        `${template}/logo`,
      );
      await conforms(await logo(`${path}/logo`, 'image/png', '<html>'), 'PUT', `${template}/logo`);
      await conforms(await h.admin('DELETE', `${path}/logo`), 'DELETE', `${template}/logo`);
      await conforms(await h.admin('DELETE', path), 'DELETE', template);
    }
    await conforms(await h.admin('GET', '/api/v1/admin/tenants/nope/branding'), 'GET', B);
    const t = `/api/v1/admin/tenants/${tid}/branding/mail-templates/sign-in-code/de`;
    await conforms(await h.admin('GET', t), 'GET', T);
    await conforms(
      await h.admin('PUT', t, { subject: 'Code {{code}}', heading: 'Code', body: '{{code}}' }),
      'PUT',
      T,
    );
    await conforms(await h.admin('PUT', t, { subject: 'Code', heading: 'Code', body: '{{nope}}' }), 'PUT', T);
    await conforms(await h.admin('DELETE', t), 'DELETE', T);
    await conforms(
      await h.admin('GET', `/api/v1/admin/tenants/${tid}/branding/mail-templates/nope/de`),
      'GET',
      T,
    );
  });

  it('support routes (people, flows, exports) responses match their schemas', async () => {
    const created = (await (await h.admin('POST', '/api/v1/admin/tenants', { name: 'Support' })).json()) as {
      tenantId: string;
    };
    const tid = created.tenantId;
    supportData(support, tid, 'another-tenant');
    const token = await h.adminToken(tid, 'support@support.test', 'support');
    const get = (path: string) => h.asToken(token, 'GET', `/api/v1/admin/tenants/${tid}${path}`);
    const T = '/api/v1/admin/tenants/{tenantId}';
    await conforms(await get('/users?query=alice%40example.com'), 'GET', `${T}/users`);
    await conforms(await get('/users?query[$ne]=1'), 'GET', `${T}/users`);
    await conforms(await get('/users/user-alice'), 'GET', `${T}/users/{userId}`);
    await conforms(await get('/users/user-other'), 'GET', `${T}/users/{userId}`);
    await conforms(await get('/flows?limit=1'), 'GET', `${T}/flows`);
    await conforms(await get('/flows?status=nope'), 'GET', `${T}/flows`);
    await conforms(await get('/flows/flow-bad'), 'GET', `${T}/flows/{flowId}`);
    await conforms(await get('/flows/flow-other'), 'GET', `${T}/flows/{flowId}`);
    await conforms(await get('/flows/export'), 'GET', `${T}/flows/export`);
    await conforms(await get('/flows/flow-ok/export'), 'GET', `${T}/flows/{flowId}/export`);
    await conforms(await get('/flows/flow-other/export'), 'GET', `${T}/flows/{flowId}/export`);
    await conforms(await get('/flows?email=ghost%40example.com'), 'GET', `${T}/flows`);
    const erase = (body: unknown) => h.admin('POST', `/api/v1/admin/tenants/${tid}/attempts/erase`, body);
    await conforms(await erase({ email: 'ghost@example.com' }), 'POST', `${T}/attempts/erase`);
    await conforms(await erase({ email: 'nope' }), 'POST', `${T}/attempts/erase`);
    await conforms(
      await h.asToken(token, 'POST', `/api/v1/admin/tenants/${tid}/attempts/erase`, { email: 'a@b.co' }),
      'POST',
      `${T}/attempts/erase`,
    );

    // A person's sessions, sign out everywhere, disable / enable (issue 38).
    h.peers.memberships.push({ tenantId: tid, appId: 'app-1', userId: 'user-alice' });
    support.sessions.set(`${tid} user-alice`, [
      {
        sid: 's1',
        deviceName: 'Linux PC',
        os: 'Linux',
        browser: 'Chrome 156',
        place: '',
        startedAt: 1,
        lastSeenAt: 2,
        apps: [{ clientId: 'c1', name: 'Shop' }],
      },
    ]);
    const U = `${T}/users/{userId}`;
    const admin = await h.adminToken(tid, 'admin@support.test', 'administrator');
    const post = (path: string, as = admin) =>
      h.asToken(as, 'POST', `/api/v1/admin/tenants/${tid}/users${path}`, {});
    await conforms(await get('/users/user-alice/sessions'), 'GET', `${U}/sessions`);
    await conforms(await get('/users/user-other/sessions'), 'GET', `${U}/sessions`);
    await conforms(await post('/user-alice/sign-out-everywhere', token), 'POST', `${U}/sign-out-everywhere`);
    await conforms(await post('/user-other/sign-out-everywhere', token), 'POST', `${U}/sign-out-everywhere`);
    await conforms(await post('/user-alice/disable', token), 'POST', `${U}/disable`);
    await conforms(await post('/user-alice/disable'), 'POST', `${U}/disable`);
    await conforms(await post('/user-alice/enable'), 'POST', `${U}/enable`);
  });

  it('people routes (list, add, remove passkey, remove phone number) and the detail match their schemas', async () => {
    const tid = await h.createTenant('People');
    supportData(support, tid, 'people-elsewhere');
    const alice = support.people.find((p) => p.tenantId === tid && p.userId === 'user-alice')!;
    Object.assign(alice, {
      createdAt: Date.UTC(2026, 0, 1),
      lastSignIn: Date.UTC(2026, 0, 2),
      phoneMasked: '•••••••••42',
      passkeys: [
        {
          credentialId: 'cred-phone',
          model: 'iCloud Keychain',
          createdAt: Date.UTC(2026, 0, 1),
          lastUsedAt: Date.UTC(2026, 0, 2),
          deviceId: 'device-1',
          deviceName: 'Chrome on macOS',
          suspected: false,
        },
        {
          credentialId: 'cred-key',
          createdAt: Date.UTC(2026, 0, 1),
          deviceId: 'device-1',
          deviceName: 'Chrome on macOS',
          suspected: true,
        },
      ],
    });
    support.addPerson({
      tenantId: tid,
      userId: 'user-bob',
      email: 'bob@example.com',
      createdAt: Date.UTC(2026, 0, 3),
      devices: [],
      memberships: [],
    });
    const app = await h.createApp<{ appId: string; clientId: string }>(tid, {
      name: 'Shop',
      redirectUris: ['https://shop.example/cb'],
      registrationRedirectUri: 'https://shop.example/welcome',
    });
    const bare = await h.createApp<{ appId: string }>(tid, { name: 'Bare' });
    const supportToken = await h.adminToken(tid, 'support@people.test', 'support');
    const admin = await h.adminToken(tid, 'admin@people.test', 'administrator');
    const at = (path: string) => `/api/v1/admin/tenants/${tid}${path}`;
    const T = '/api/v1/admin/tenants/{tenantId}';

    const detail = await conforms(
      await h.asToken(supportToken, 'GET', at('/users/user-alice')),
      'GET',
      `${T}/users/{userId}`,
    );
    assert.deepEqual(
      [detail.createdAt, detail.phoneMasked, (detail.passkeys as unknown[]).length],
      [Date.UTC(2026, 0, 1), '•••••••••42', 2],
    );

    const P = `${T}/people`;
    const page = await conforms(await h.asToken(supportToken, 'GET', at('/people?limit=1')), 'GET', P);
    assert.ok(page.nextCursor, 'a first page of one of two people has a next cursor');
    await conforms(await h.asToken(supportToken, 'GET', at(`/people?cursor=${page.nextCursor}`)), 'GET', P);
    await conforms(await h.asToken(supportToken, 'GET', at('/people?limit=0')), 'GET', P);
    await conforms(await h.admin('GET', '/api/v1/admin/tenants/nope/people'), 'GET', P);

    const add = (body: unknown, token = admin) => h.asToken(token, 'POST', at('/people'), body);
    const added = await conforms(await add({ email: 'New@Example.com', app: app.clientId }), 'POST', P);
    assert.deepEqual([added.email, added.appId], ['new@example.com', app.appId]);
    await conforms(await add({ email: 'not-an-address', app: app.appId }), 'POST', P);
    await conforms(await add({ email: 'new@example.com', app: bare.appId }), 'POST', P);
    await conforms(await add({ email: 'new@example.com', app: 'nope' }), 'POST', P);
    await conforms(await add({ email: 'new@example.com', app: app.appId }, supportToken), 'POST', P);
    h.peers.limitedAddresses.add('busy@example.com');
    await conforms(await add({ email: 'busy@example.com', app: app.appId }), 'POST', P);

    const K = `${T}/users/{userId}/passkeys/{credentialId}`;
    const removeKey = (user: string, key: string) =>
      h.asToken(supportToken, 'DELETE', at(`/users/${user}/passkeys/${key}`));
    await conforms(await removeKey('user-alice', 'cred-phone'), 'DELETE', K);
    await conforms(await removeKey('user-alice', 'cred-phone'), 'DELETE', K);
    await conforms(await removeKey('user-alice', 'x'.repeat(300)), 'DELETE', K);

    const N = `${T}/users/{userId}/phone-number`;
    const removePhone = (user: string, token = admin) =>
      h.asToken(token, 'DELETE', at(`/users/${user}/phone-number`));
    await conforms(await removePhone('user-alice', supportToken), 'DELETE', N);
    await conforms(await removePhone('user-alice'), 'DELETE', N);
    await conforms(await removePhone('user-alice'), 'DELETE', N);
    await conforms(await removePhone('user-other'), 'DELETE', N);
    for (const [op, statuses] of [
      [`GET ${P}`, ['200', '400', '404']],
      [`POST ${P}`, ['201', '400', '403', '404', '429']],
      [`DELETE ${K}`, ['200', '400', '404']],
      [`DELETE ${N}`, ['200', '403', '404', '409']],
    ] as const) {
      for (const status of statuses)
        assert.ok(checked.has(`${op} ${status}`), `${op} ${status} was not seen`);
    }
  });

  it('covered every documented operation with at least one real response', () => {
    const ops = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((m) => m !== 'parameters')
        .map((m) => `${m.toUpperCase()} ${p}`),
    );
    const seen = new Set([...checked].map((c) => c.split(' ').slice(0, 2).join(' ')));
    assert.deepEqual(
      ops.filter((op) => !seen.has(op)),
      [],
    );
  });
});
