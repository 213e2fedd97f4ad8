import assert from 'node:assert/strict';
import { X509Certificate, createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, it } from '@jest/globals';
import { CIBA_GRANT_TYPE } from '@sesame/oauth';
import { sha256 } from '@sesame/platform';
import { directory } from '@sesame/proto';
import { type TlsFiles, createTestPki } from '@sesame/testing';
import { startedForSuite } from '@sesame/testing/suite';
import { sampleClaims } from '../../testing/sample-claims';
import { basic, issueTestCode, postToken, startTokenHarness } from '../../testing/token-harness';

const REDIRECT = 'https://rp.example/cb';
const HEADER = 'x-ssl-client-cert';
const VERIFY = 'x-ssl-client-verify';
const VERIFIER = 'dBjftJeZ4CK-P0mWp1u3jJqzdUFtFhPq0MDbP8hGdXk';

interface ClientCert {
  pem: string;
  /** nginx's $ssl_client_escaped_cert. */
  nginx: string;
  /** HAProxy's %[ssl_c_der,base64]. */
  haproxy: string;
  jwk: Record<string, unknown>;
}

const load = (files: TlsFiles): ClientCert => {
  const pem = readFileSync(files.cert, 'utf8');
  const jwk = createPublicKey(createPrivateKey(readFileSync(files.key, 'utf8'))).export({ format: 'jwk' });
  return {
    pem,
    nginx: encodeURIComponent(pem),
    haproxy: Buffer.from(new X509Certificate(pem).raw).toString('base64'),
    jwk: jwk as Record<string, unknown>,
  };
};

/**
 * RFC 8705 client authentication at /token, /introspect and /revoke through token's real HTTP app, the
 * certificate forwarded by a TLS terminator in SESAME_TLS_CLIENT_CERT_HEADER: tls_client_auth (subject DN) and
 * self_signed_tls_client_auth (a key of the client's JWK Set). Refusals first.
 */
describe('mutual-TLS client authentication at token endpoints', () => {
  const h = startedForSuite(() =>
    startTokenHarness({
      env: {
        SESAME_TLS_CLIENT_CERT_HEADER: 'X-SSL-Client-Cert',
        SESAME_TLS_CLIENT_VERIFY_HEADER: 'X-SSL-Client-Verify',
      },
    }),
  );
  // The same app without the variable: the header is not believed.
  const plain = startedForSuite(() => startTokenHarness());
  let bank: ClientCert;
  let intruder: ClientCert;
  beforeAll(async () => {
    const pki = await createTestPki('mtls');
    bank = load(await pki.issue('bank-rp'));
    intruder = load(await pki.issue('intruder'));
    for (const harness of [h, plain]) {
      harness.directory.addClient({
        clientId: 'by-dn',
        // The fake Directory would accept this secret: token must still refuse it for an mTLS app.
        secret: 'by-dn-secret',
        tokenEndpointAuthMethod: 'tls_client_auth',
        tlsClientAuthSubjectDn: 'CN=bank-rp',
      });
      harness.directory.addClient({
        clientId: 'by-key',
        tokenEndpointAuthMethod: 'self_signed_tls_client_auth',
        jwks: JSON.stringify({ keys: [bank.jwk] }),
      });
    }
    // Certificate-bound tokens: an mTLS app, and a public one that presents a certificate without being
    // authenticated by it (RFC 8705 4).
    h.directory.addClient({
      clientId: 'bound',
      tokenEndpointAuthMethod: 'self_signed_tls_client_auth',
      jwks: JSON.stringify({ keys: [bank.jwk] }),
      tlsClientCertificateBoundAccessTokens: true,
    });
    h.directory.addClient({ clientId: 'bound-public', tlsClientCertificateBoundAccessTokens: true });
    h.directory.addApiCredentials('rs', 'rs-secret');
  });

  const issue = (harness: typeof h, clientId: string) => issueTestCode(harness, clientId, REDIRECT);
  const redeem = async (
    clientId: string,
    cert?: string,
    extra: Record<string, string> = {},
    harness = h,
    verdict = 'SUCCESS',
  ) =>
    postToken(
      `${harness.url}/token`,
      {
        grant_type: 'authorization_code',
        code: await issue(harness, clientId),
        redirect_uri: REDIRECT,
        client_id: clientId,
        ...extra,
      },
      cert === undefined ? {} : { [HEADER]: cert, [VERIFY]: verdict },
    );
  const refused = (res: { status: number; body: Record<string, unknown> }) => [res.status, res.body.error];

  it('refuses an mTLS client without a certificate: 401 invalid_client', async () => {
    for (const clientId of ['by-dn', 'by-key'])
      assert.deepEqual(refused(await redeem(clientId)), [401, 'invalid_client']);
  });

  it('refuses a certificate with another subject DN, and one whose key is not in the JWK Set', async () => {
    assert.deepEqual(refused(await redeem('by-dn', intruder.nginx)), [401, 'invalid_client']);
    assert.deepEqual(refused(await redeem('by-key', intruder.nginx)), [401, 'invalid_client']);
    assert.deepEqual(refused(await redeem('by-dn', 'not-a-certificate')), [401, 'invalid_client']);
  });

  it('tls_client_auth: refuses the registered DN when the terminator did not verify its chain', async () => {
    for (const verdict of ['FAILED:unable to verify the first certificate', 'NONE', ''])
      assert.deepEqual(
        refused(await redeem('by-dn', bank.nginx, {}, h, verdict)),
        [401, 'invalid_client'],
        verdict,
      );
  });

  it("refuses the app's secret: its certificate is its only proof", async () => {
    const res = await redeem('by-dn', bank.nginx, { client_secret: 'by-dn-secret' });
    assert.deepEqual(refused(res), [401, 'invalid_client']);
  });

  it('ignores the header where SESAME_TLS_CLIENT_CERT_HEADER is not set', async () => {
    assert.deepEqual(refused(await redeem('by-dn', bank.nginx, {}, plain)), [401, 'invalid_client']);
    assert.deepEqual(refused(await redeem('by-key', bank.haproxy, {}, plain)), [401, 'invalid_client']);
  });

  it('redeems a code with the registered certificate, as nginx or HAProxy forward it', async () => {
    for (const [clientId, cert] of [
      ['by-dn', bank.nginx],
      ['by-dn', bank.haproxy],
      ['by-key', bank.nginx],
      ['by-key', bank.haproxy],
    ] as const) {
      const res = await redeem(clientId, cert);
      assert.equal(res.status, 200, `${clientId}: ${JSON.stringify(res.body)}`);
      assert.equal(typeof res.body.access_token, 'string');
    }
  });

  it('authenticates /introspect and /revoke with the certificate, and refuses them without it', async () => {
    const token = String((await redeem('by-key', bank.nginx)).body.access_token);
    const form = { token, client_id: 'by-key' };
    const without = await postToken(`${h.url}/introspect`, form);
    assert.deepEqual(refused(without), [401, 'invalid_client']);
    const introspected = await postToken(`${h.url}/introspect`, form, { [HEADER]: bank.nginx });
    assert.deepEqual([introspected.status, introspected.body.active], [200, true]);
    const revoke = (cert?: string) =>
      fetch(`${h.url}/revoke`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(cert ? { [HEADER]: cert } : {}),
        },
        body: new URLSearchParams(form).toString(),
      });
    assert.equal((await revoke(intruder.nginx)).status, 401);
    assert.equal((await revoke(bank.haproxy)).status, 200);
    const after = await postToken(`${h.url}/introspect`, form, { [HEADER]: bank.nginx });
    assert.equal(after.body.active, false);
  });

  describe('certificate-bound access tokens (cnf.x5t#S256)', () => {
    const userinfo = (token: string, cert?: string) =>
      fetch(`${h.url}/userinfo`, {
        headers: { authorization: `Bearer ${token}`, ...(cert ? { [HEADER]: cert } : {}) },
      });
    const thumbprint = () =>
      createHash('sha256').update(new X509Certificate(bank.pem).raw).digest('base64url');

    it('refuses the token replayed without its certificate or with another one: 401 invalid_token', async () => {
      const token = String((await redeem('bound', bank.nginx)).body.access_token);
      for (const cert of [undefined, intruder.nginx, intruder.haproxy]) {
        const res = await userinfo(token, cert);
        assert.equal(res.status, 401);
        assert.match(res.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      }
      // Its own app introspecting it with another certificate is refused before the token is looked at
      // (the certificate does not authenticate the app); API credentials see the binding to check it.
      const form = { token, client_id: 'bound' };
      assert.deepEqual(refused(await postToken(`${h.url}/introspect`, form, { [HEADER]: intruder.nginx })), [
        401,
        'invalid_client',
      ]);
    });

    it('answers /userinfo with the same certificate (either form), and introspection carries cnf', async () => {
      const token = String((await redeem('bound', bank.haproxy)).body.access_token);
      for (const cert of [bank.nginx, bank.haproxy]) assert.equal((await userinfo(token, cert)).status, 200);
      const byApp = await postToken(
        `${h.url}/introspect`,
        { token, client_id: 'bound' },
        { [HEADER]: bank.nginx },
      );
      assert.deepEqual(
        [byApp.status, byApp.body.active, byApp.body.cnf],
        [200, true, { 'x5t#S256': thumbprint() }],
      );
      const byRs = await postToken(
        `${h.url}/introspect`,
        { token },
        { authorization: basic('rs', 'rs-secret') },
      );
      assert.deepEqual(byRs.body.cnf, { 'x5t#S256': thumbprint() });
    });

    it("binds a public client's token to the certificate it presented, and refuses it a token without one", async () => {
      const noCert = await redeem('bound-public', undefined, { code_verifier: 'x' });
      assert.deepEqual(refused(noCert), [400, 'invalid_request']);
      const issued = await h.grants.issueCode({
        tenantId: 'tenant-1',
        appId: 'app-bound-public',
        clientId: 'bound-public',
        redirectUri: REDIRECT,
        scope: 'openid',
        codeChallenge: sha256(VERIFIER),
        codeChallengeMethod: 'S256',
        flowId: 'flow-1',
        dpopJkt: '',
        claims: sampleClaims({}),
      });
      const res = await postToken(
        `${h.url}/token`,
        {
          grant_type: 'authorization_code',
          code: issued.code,
          redirect_uri: REDIRECT,
          client_id: 'bound-public',
          code_verifier: VERIFIER,
        },
        { [HEADER]: intruder.nginx },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const token = String(res.body.access_token);
      assert.equal((await userinfo(token, intruder.nginx)).status, 200);
      assert.equal((await userinfo(token, bank.nginx)).status, 401);
    });

    it('binds CIBA tokens (poll and ping) to the certificate the client authenticated with (FAPI-CIBA)', async () => {
      for (const mode of [
        directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_POLL,
        directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_PING,
      ]) {
        const clientId = `bound-ciba-${mode}`;
        h.directory.addClient({
          clientId,
          tokenEndpointAuthMethod: 'self_signed_tls_client_auth',
          jwks: JSON.stringify({ keys: [bank.jwk] }),
          tlsClientCertificateBoundAccessTokens: true,
          ciba: { mode, notificationEndpoint: 'https://rp.example/ping' },
        });
        const { authReqId } = await h.grants.startBackchannel({
          tenantId: 'tenant-1',
          appId: 'app-1',
          clientId,
          scope: 'openid email',
          clientNotificationToken: 'notif-token',
          expiresIn: 0,
          flowId: 'flow-ciba',
        });
        const form = { grant_type: CIBA_GRANT_TYPE, auth_req_id: authReqId, client_id: clientId };
        // Its certificate is its proof: a poll without one is refused before anything is redeemed.
        assert.deepEqual(refused(await postToken(`${h.url}/token`, form)), [401, 'invalid_client']);
        await h.grants.completeBackchannel({ authReqId, claims: sampleClaims({}) });
        const res = await postToken(`${h.url}/token`, form, { [HEADER]: bank.haproxy });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.token_type, 'Bearer');
        const token = String(res.body.access_token);
        assert.equal((await userinfo(token, bank.nginx)).status, 200);
        for (const cert of [undefined, intruder.nginx])
          assert.equal((await userinfo(token, cert)).status, 401);
        const byRs = await postToken(
          `${h.url}/introspect`,
          { token },
          { authorization: basic('rs', 'rs-secret') },
        );
        assert.deepEqual([byRs.body.active, byRs.body.cnf], [true, { 'x5t#S256': thumbprint() }]);
      }
    });

    it('refuses a bound CIBA client that polls with a secret but no certificate: 400 invalid_request', async () => {
      h.directory.addClient({
        clientId: 'bound-ciba-secret',
        secret: 'ciba-secret',
        tlsClientCertificateBoundAccessTokens: true,
      });
      const { authReqId } = await h.grants.startBackchannel({
        tenantId: 'tenant-1',
        appId: 'app-1',
        clientId: 'bound-ciba-secret',
        scope: 'openid',
        clientNotificationToken: '',
        expiresIn: 0,
        flowId: 'flow-ciba',
      });
      await h.grants.completeBackchannel({ authReqId, claims: sampleClaims({}) });
      const form = { grant_type: CIBA_GRANT_TYPE, auth_req_id: authReqId };
      const auth = { authorization: basic('bound-ciba-secret', 'ciba-secret') };
      assert.deepEqual(refused(await postToken(`${h.url}/token`, form, auth)), [400, 'invalid_request']);
      // Not used up: the same request redeems once the certificate is there.
      const ok = await postToken(`${h.url}/token`, form, { ...auth, [HEADER]: bank.nginx });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal((await userinfo(String(ok.body.access_token), bank.nginx)).status, 200);
    });

    it('leaves the tokens of other apps bearer tokens: no cnf, no certificate needed', async () => {
      const token = String((await redeem('by-key', bank.nginx)).body.access_token);
      const res = await postToken(
        `${h.url}/introspect`,
        { token },
        { authorization: basic('rs', 'rs-secret') },
      );
      assert.deepEqual([res.body.active, res.body.cnf], [true, undefined]);
    });
  });
});
