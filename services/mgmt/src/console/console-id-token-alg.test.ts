import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { startApplicationConsole, stopConsole } from '../testing/console-fixture';
import { ConsoleBrowser, type FakeProvider } from '../testing/fake-provider';
import type { MgmtHarness } from '../testing/mgmt-harness';

const csrf = ConsoleBrowser.csrfOf;

describe('console page: the ID token signing algorithm of an application', () => {
  let h: MgmtHarness;
  let provider: FakeProvider;
  let tenantId: string;
  let appId: string;
  let admin: ConsoleBrowser;
  beforeAll(async () => {
    ({ h, provider, tenantId, appId, admin } = await startApplicationConsole());
  });
  afterAll(() => stopConsole({ h, provider }));

  const save = async (idTokenSignedResponseAlg: string) => {
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    return admin.post(`/console/applications/${appId}`, {
      csrf: csrf(page),
      refreshFields: '1',
      name: 'Shop',
      redirectUris: 'https://shop.test/cb',
      allowedScopes: 'openid email',
      cibaMode: 'poll',
      idTokenSignedResponseAlg,
    });
  };
  const stored = async () => (await h.dir.applications.get(tenantId, appId))?.idTokenSignedResponseAlg;

  it('shows the select in the Signing section with RS256 (default) chosen, then PS256 and ES256', async () => {
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    assert.match(page, /<h3>Signing<\/h3>/);
    assert.match(page, /<label for="app-id-token-alg">ID token signing algorithm<\/label>/);
    assert.match(
      page,
      /<select id="app-id-token-alg" name="idTokenSignedResponseAlg" aria-describedby="app-id-token-alg-hint"><option value="">RS256 \(default\)<\/option><option value="PS256">PS256<\/option><option value="ES256">ES256<\/option><\/select>/,
    );
  });

  it('stores ES256, shows it chosen, and the default clears it', async () => {
    assert.equal((await save('ES256')).status, 303);
    assert.equal(await stored(), 'ES256');
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    assert.match(page, /<option value="ES256" selected>ES256<\/option>/);
    assert.equal((await save('')).status, 303);
    assert.equal(await stored(), undefined);
  });

  it('refuses a forged value (HS256) with a 400 naming the field, and stores nothing', async () => {
    const res = await save('HS256');
    assert.equal(res.status, 400);
    assert.match(await res.text(), /id="app-id-token-alg-error"/);
    assert.equal(await stored(), undefined);
  });
});
