import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { basic, startTokenHarness } from '../../testing/token-harness';

describe('/token hardening', () => {
  const h = startedForSuite(startTokenHarness);
  beforeAll(() => {
    h.directory.addClient({
      clientId: 'conf',
      secret: 'conf-secret',
      redirectUris: ['https://rp.example/cb'],
    });
    h.directory.addClient({
      clientId: 'spa',
      redirectUris: ['https://spa.example/cb', 'com.example.app:/cb'],
    });
  });

  it("error_description never repeats the caller's input", async () => {
    const hostile = '<script>alert(1)</script>';
    const unsupported = await h.post({ grant_type: hostile });
    const duplicated = await fetch(`${h.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&${encodeURIComponent(hostile)}=1&${encodeURIComponent(hostile)}=2`,
    });
    const bodies = [unsupported.body, (await duplicated.json()) as Record<string, unknown>];
    assert.equal(bodies[0]!.error, 'unsupported_grant_type');
    assert.equal(bodies[1]!.error, 'invalid_request');
    for (const body of bodies)
      assert.ok(!String(body.error_description).includes('script'), JSON.stringify(body));
  });

  it('answers an unknown client, a missing secret and a wrong secret with the same 401 invalid_client', async () => {
    const form = { grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: 'x' };
    const answers = [
      await h.post({ ...form, client_id: 'nobody', client_secret: 'whatever' }),
      await h.post({ ...form, client_id: 'conf' }),
      await h.post(form, { authorization: basic('conf', 'wrong-secret') }),
      await h.post({ ...form, client_id: 'nobody' }),
    ];
    const shape = (a: (typeof answers)[number]) => [a.status, a.headers.get('www-authenticate'), a.body];
    for (const answer of answers) assert.deepEqual(shape(answer), shape(answers[0]!));
    assert.deepEqual(answers[0]!.body, {
      error: 'invalid_client',
      error_description: 'client authentication failed',
    });
    assert.equal(answers[0]!.status, 401);
  });

  it("CORS: a public client's redirect-URI origins may read its answers; other origins and confidential clients get no CORS header", async () => {
    const form = {
      grant_type: 'authorization_code',
      code: 'unknown',
      redirect_uri: 'https://spa.example/cb',
    };
    const spa = await h.post({ ...form, client_id: 'spa' }, { origin: 'https://spa.example' });
    assert.equal(spa.headers.get('access-control-allow-origin'), 'https://spa.example');
    const elsewhere = await h.post({ ...form, client_id: 'spa' }, { origin: 'https://evil.example' });
    assert.equal(elsewhere.headers.get('access-control-allow-origin'), null);
    const confidential = await h.post(
      { ...form, client_id: 'conf', client_secret: 'conf-secret' },
      { origin: 'https://rp.example' },
    );
    assert.equal(confidential.headers.get('access-control-allow-origin'), null);
  });
});
