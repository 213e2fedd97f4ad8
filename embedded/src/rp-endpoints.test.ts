import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type Embedded, startEmbedded } from './index';

const env = { LOG_LEVEL: 'silent', SESAME_ENV: 'test' };

describe('the embedded default serves the standard RP endpoints on its one port (issue 27)', () => {
  let embedded: Embedded;
  const form = (body: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  beforeAll(async () => {
    embedded = await startEmbedded({ port: 0, env, seedDemo: true });
  });
  afterAll(() => embedded?.stop());

  it('the demo app allows refresh tokens', async () => {
    const demo = embedded.demo!;
    const res = await fetch(
      `${embedded.url}/api/v1/admin/tenants/${demo.tenantId}/applications/${demo.appId}`,
      {
        headers: { authorization: `Bearer ${embedded.adminKey}` },
      },
    );
    const app = (await res.json()) as { refreshTokens?: { enabled: boolean } };
    assert.equal(app.refreshTokens?.enabled, true);
  });

  it('discovery names /userinfo, /revoke and /introspect under the one URL, and token answers each', async () => {
    const demo = embedded.demo!;
    const doc = (await (await fetch(`${embedded.url}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    assert.equal(doc.userinfo_endpoint, `${embedded.url}/userinfo`);
    const client = { client_id: demo.clientId, client_secret: demo.clientSecret };
    const revoke = await fetch(String(doc.revocation_endpoint), form({ token: 'unknown', ...client }));
    assert.equal(revoke.status, 200);
    assert.deepEqual(await revoke.json(), {});
    const introspect = await fetch(String(doc.introspection_endpoint), form({ token: 'unknown', ...client }));
    assert.deepEqual(await introspect.json(), { active: false });
    const userinfo = await fetch(String(doc.userinfo_endpoint), {
      headers: { authorization: 'Bearer unknown' },
    });
    assert.equal(userinfo.status, 401);
    assert.match(userinfo.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  });
});
