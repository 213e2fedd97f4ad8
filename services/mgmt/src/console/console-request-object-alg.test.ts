import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { startApplicationConsole, stopConsole } from '../testing/console-fixture';
import { ConsoleBrowser, type FakeProvider } from '../testing/fake-provider';
import type { MgmtHarness } from '../testing/mgmt-harness';

const csrf = ConsoleBrowser.csrfOf;
const jwk = { kty: 'EC', crv: 'P-256', kid: 'k1', x: 'x-coord', y: 'y-coord' };

describe('console page: the request object signing algorithm of an application (JAR)', () => {
  let h: MgmtHarness;
  let provider: FakeProvider;
  let tenantId: string;
  let appId: string;
  let admin: ConsoleBrowser;
  beforeAll(async () => {
    ({ h, provider, tenantId, appId, admin } = await startApplicationConsole());
  });
  afterAll(() => stopConsole({ h, provider }));

  const save = async (requestObjectSigningAlg: string) => {
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    return admin.post(`/console/applications/${appId}`, {
      csrf: csrf(page),
      refreshFields: '1',
      name: 'Shop',
      redirectUris: 'https://shop.test/cb',
      allowedScopes: 'openid email',
      cibaMode: 'poll',
      requestObjectSigningAlg,
    });
  };

  it('shows the select with Any chosen and the three algorithms', async () => {
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    assert.match(page, /<label for="app-request-object-alg">Request object signing algorithm<\/label>/);
    assert.match(
      page,
      /<select id="app-request-object-alg" name="requestObjectSigningAlg" aria-describedby="app-request-object-alg-hint"><option value="">Any: signed, unsigned or encrypted<\/option><option value="RS256">RS256<\/option><option value="PS256">PS256<\/option><option value="ES256">ES256<\/option><\/select>/,
    );
  });

  it('refuses an algorithm for an app without keys, naming the field, and stores nothing', async () => {
    const res = await save('ES256');
    assert.equal(res.status, 400);
    assert.match(await res.text(), /needs the keys that sign request objects: jwks or jwksUri/);
    assert.equal((await h.dir.applications.get(tenantId, appId))?.requestObjectSigningAlg, undefined);
  });

  it('stores an algorithm for an app with keys, shows it chosen, and Any clears it', async () => {
    await h.dir.applications.update(tenantId, appId, {
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwks: { keys: [jwk] },
      updatedAt: Date.now(),
    });
    assert.equal((await save('PS256')).status, 303);
    assert.equal((await h.dir.applications.get(tenantId, appId))?.requestObjectSigningAlg, 'PS256');
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    assert.match(page, /<option value="PS256" selected>PS256<\/option>/);
    assert.equal((await save('')).status, 303);
    assert.equal((await h.dir.applications.get(tenantId, appId))?.requestObjectSigningAlg, undefined);
  });
});
