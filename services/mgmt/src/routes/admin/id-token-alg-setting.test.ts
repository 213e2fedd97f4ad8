import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { errorOf, startMgmt } from '../../testing/mgmt-harness';

type App = Record<string, unknown> & { appId: string };

describe('admin API: idTokenSignedResponseAlg of an application', () => {
  const h = startedForSuite(() => startMgmt());
  let base: string;
  beforeAll(async () => {
    base = `/api/v1/admin/tenants/${await h.createTenant('T')}/applications`;
  });

  it('stores PS256 or ES256, shows it, and answers no field for an app that chose none (RS256)', async () => {
    const created = await h.admin('POST', base, { name: 'Bank', idTokenSignedResponseAlg: 'ES256' });
    assert.equal(created.status, 201);
    const app = (await created.json()) as App;
    assert.equal(app.idTokenSignedResponseAlg, 'ES256');
    const shown = (await (await h.admin('GET', `${base}/${app.appId}`)).json()) as App;
    assert.equal(shown.idTokenSignedResponseAlg, 'ES256');
    const plain = (await (await h.admin('POST', base, { name: 'Plain' })).json()) as App;
    assert.equal('idTokenSignedResponseAlg' in plain, false);
  });

  it('changes it with PATCH and clears it with null (back to RS256)', async () => {
    const app = (await (await h.admin('POST', base, { name: 'Shop' })).json()) as App;
    const patched = await h.admin('PATCH', `${base}/${app.appId}`, { idTokenSignedResponseAlg: 'PS256' });
    assert.equal(patched.status, 200);
    assert.equal(((await patched.json()) as App).idTokenSignedResponseAlg, 'PS256');
    const cleared = await h.admin('PATCH', `${base}/${app.appId}`, { idTokenSignedResponseAlg: null });
    assert.equal(cleared.status, 200);
    assert.equal('idTokenSignedResponseAlg' in ((await cleared.json()) as App), false);
  });

  it('refuses an alg it has no key for (none, HS256, RS512, lower case) with a field error, on POST and PATCH', async () => {
    const app = (await (
      await h.admin('POST', base, { name: 'Kept', idTokenSignedResponseAlg: 'PS256' })
    ).json()) as App;
    for (const alg of ['none', 'HS256', 'RS512', 'es256', '', 42]) {
      for (const [method, path, body] of [
        ['POST', base, { name: 'Bad', idTokenSignedResponseAlg: alg }],
        ['PATCH', `${base}/${app.appId}`, { idTokenSignedResponseAlg: alg }],
      ] as const) {
        const res = await h.admin(method, path, body);
        assert.equal(res.status, 400, `${method} ${JSON.stringify(alg)}`);
        const error = await errorOf(res);
        assert.equal(error.code, 'invalid_request');
        assert.ok(error.fields && 'idTokenSignedResponseAlg' in error.fields, JSON.stringify(error.fields));
      }
    }
    const kept = (await (await h.admin('GET', `${base}/${app.appId}`)).json()) as App;
    assert.equal(kept.idTokenSignedResponseAlg, 'PS256', 'a refused PATCH changes nothing');
  });
});
