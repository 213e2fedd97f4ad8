// Over 300 lines on purpose: one contract every Directory adapter (memory, embedded, Mongo) passes, field by field of an application.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { openedForSuite } from '@sesame/testing/suite';
import { type DirectoryRepositories, DuplicateKeyError } from './directory.repository';
import type { Application } from './model';

const uid = () => randomUUID();

export function sampleApplication(tenantId: string, overrides: Partial<Application> = {}): Application {
  return {
    tenantId,
    appId: uid(),
    name: 'Shop',
    clientId: `client-${uid()}`,
    clientType: 'confidential',
    clientSecretHash: 'hash-of-secret',
    clientSecretSealed: 'v1.k1.iv.tag.body',
    redirectUris: ['https://shop.example/cb', 'https://shop.example/cb2'],
    allowedScopes: ['openid', 'email'],
    ciba: { mode: 'ping', notificationEndpoint: 'https://shop.example/ciba', strictErrors: true },
    auxLinkPrefix: 'https://shop.example/aux/',
    registrationRedirectUri: 'https://shop.example/registered',
    createdAt: 1_000,
    updatedAt: 1_000,
    ...overrides,
  };
}

/** The behaviour every directory adapter must have; run against the in-memory and the Mongo adapter. */
export function directoryContract(adapter: string, make: () => Promise<DirectoryRepositories>): void {
  describe(`directory contract: ${adapter}`, () => {
    const dir = openedForSuite(make);

    it('tenants: create, get, update, list oldest first, remove; a duplicate tenantId is refused', async () => {
      const a = { tenantId: uid(), name: 'A', createdAt: 10, updatedAt: 10 };
      const b = { tenantId: uid(), name: 'B', createdAt: 20, updatedAt: 20 };
      await dir.tenants.create(b);
      await dir.tenants.create(a);
      assert.deepEqual(await dir.tenants.get(a.tenantId), a);
      await assert.rejects(dir.tenants.create({ ...a, name: 'again' }), DuplicateKeyError);
      assert.deepEqual(await dir.tenants.update(a.tenantId, { name: 'A2', updatedAt: 30 }), {
        ...a,
        name: 'A2',
        updatedAt: 30,
      });
      const ruled = await dir.tenants.update(a.tenantId, { blockedCountries: ['KP', 'RU'], updatedAt: 40 });
      assert.deepEqual(ruled, { ...a, name: 'A2', updatedAt: 40, blockedCountries: ['KP', 'RU'] });
      assert.deepEqual(await dir.tenants.get(a.tenantId), ruled, 'the location rule is stored');
      const ids = (await dir.tenants.list()).map((t) => t.tenantId);
      assert.ok(ids.indexOf(a.tenantId) < ids.indexOf(b.tenantId));
      assert.equal(await dir.tenants.remove(a.tenantId), true);
      assert.equal(await dir.tenants.remove(a.tenantId), false);
      assert.equal(await dir.tenants.get(a.tenantId), undefined);
      assert.equal(await dir.tenants.update(a.tenantId, { name: 'x', updatedAt: 1 }), undefined);
    });

    it('applications: stored exactly, found by tenant + appId and by clientId; unique appId and clientId', async () => {
      const tenantId = uid();
      const app = sampleApplication(tenantId);
      await dir.applications.create(app);
      assert.deepEqual(await dir.applications.get(tenantId, app.appId), app);
      assert.deepEqual(await dir.applications.findByClientId(app.clientId), app);
      assert.equal(await dir.applications.findByClientId('no-such-client'), undefined);
      await assert.rejects(
        dir.applications.create(sampleApplication(tenantId, { clientId: app.clientId })),
        DuplicateKeyError,
      );
      await assert.rejects(
        dir.applications.create(sampleApplication(uid(), { appId: app.appId })),
        DuplicateKeyError,
      );
    });

    it('applications: refresh token settings are stored exactly, changed and cleared by update', async () => {
      const tenantId = uid();
      const refreshTokens = { enabled: true, absoluteLifetimeS: 86_400, idleLifetimeS: 3_600 };
      const app = sampleApplication(tenantId, { refreshTokens });
      await dir.applications.create(app);
      assert.deepEqual(await dir.applications.get(tenantId, app.appId), app);
      const off = { ...refreshTokens, enabled: false };
      const changed = await dir.applications.update(tenantId, app.appId, {
        refreshTokens: off,
        updatedAt: 2,
      });
      assert.deepEqual(changed?.refreshTokens, off);
      const cleared = await dir.applications.update(tenantId, app.appId, {
        refreshTokens: undefined,
        updatedAt: 3,
      });
      assert.equal(cleared?.refreshTokens, undefined);
      assert.equal('refreshTokens' in ((await dir.applications.get(tenantId, app.appId)) ?? {}), false);
    });

    it('applications: logout settings are stored exactly, changed and cleared by update', async () => {
      const tenantId = uid();
      const app = sampleApplication(tenantId, {
        postLogoutRedirectUris: ['https://shop.example/bye', 'com.example.shop:/bye'],
        backchannelLogoutUri: 'https://shop.example/backchannel-logout',
        backchannelLogoutSessionRequired: true,
      });
      await dir.applications.create(app);
      assert.deepEqual(await dir.applications.get(tenantId, app.appId), app);
      const changed = await dir.applications.update(tenantId, app.appId, {
        postLogoutRedirectUris: ['https://shop.example/bye'],
        updatedAt: 2,
      });
      assert.deepEqual(changed?.postLogoutRedirectUris, ['https://shop.example/bye']);
      const cleared = await dir.applications.update(tenantId, app.appId, {
        postLogoutRedirectUris: undefined,
        backchannelLogoutUri: undefined,
        backchannelLogoutSessionRequired: undefined,
        updatedAt: 3,
      });
      for (const field of [
        'postLogoutRedirectUris',
        'backchannelLogoutUri',
        'backchannelLogoutSessionRequired',
      ])
        assert.equal(field in (cleared ?? {}), false, field);
    });

    it('applications: private_key_jwt keys and the PAR rule are stored exactly, changed and cleared', async () => {
      const tenantId = uid();
      const jwks = { keys: [{ kty: 'EC', crv: 'P-256', kid: 'k1', x: 'x-coord', y: 'y-coord' }] };
      const app = sampleApplication(tenantId, {
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwks,
        requirePushedAuthorizationRequests: true,
        requestObjectSigningAlg: 'ES256',
        idTokenSignedResponseAlg: 'ES256',
      });
      await dir.applications.create(app);
      assert.deepEqual(await dir.applications.get(tenantId, app.appId), app);
      const changed = await dir.applications.update(tenantId, app.appId, {
        jwks: undefined,
        jwksUri: 'https://bank.example/jwks.json',
        updatedAt: 2,
      });
      assert.equal(changed?.jwksUri, 'https://bank.example/jwks.json');
      assert.equal('jwks' in (changed ?? {}), false);
      const cleared = await dir.applications.update(tenantId, app.appId, {
        tokenEndpointAuthMethod: undefined,
        jwksUri: undefined,
        requirePushedAuthorizationRequests: undefined,
        requestObjectSigningAlg: undefined,
        idTokenSignedResponseAlg: undefined,
        updatedAt: 3,
      });
      for (const field of [
        'tokenEndpointAuthMethod',
        'jwks',
        'jwksUri',
        'requirePushedAuthorizationRequests',
        'requestObjectSigningAlg',
        'idTokenSignedResponseAlg',
      ])
        assert.equal(field in (cleared ?? {}), false, field);
    });

    it('applications: the mutual-TLS subject DN and token binding are stored exactly, changed and cleared', async () => {
      const tenantId = uid();
      const app = sampleApplication(tenantId, {
        tokenEndpointAuthMethod: 'tls_client_auth',
        tlsClientAuthSubjectDn: 'CN=bank-rp,O=Bank\\, Inc.,C=DE',
        tlsClientCertificateBoundAccessTokens: true,
      });
      await dir.applications.create(app);
      assert.deepEqual(await dir.applications.get(tenantId, app.appId), app);
      const changed = await dir.applications.update(tenantId, app.appId, {
        tlsClientAuthSubjectDn: 'CN=other-rp',
        updatedAt: 2,
      });
      assert.equal(changed?.tlsClientAuthSubjectDn, 'CN=other-rp');
      const cleared = await dir.applications.update(tenantId, app.appId, {
        tokenEndpointAuthMethod: undefined,
        tlsClientAuthSubjectDn: undefined,
        tlsClientCertificateBoundAccessTokens: undefined,
        updatedAt: 3,
      });
      for (const field of [
        'tokenEndpointAuthMethod',
        'tlsClientAuthSubjectDn',
        'tlsClientCertificateBoundAccessTokens',
      ])
        assert.equal(field in (cleared ?? {}), false, field);
    });

    it('applications: the CIBA request signing alg is stored exactly, changed and cleared', async () => {
      const tenantId = uid();
      const app = sampleApplication(tenantId, {
        ciba: { mode: 'poll', strictErrors: true },
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwks: { keys: [{ kty: 'EC', crv: 'P-256', kid: 'k1', x: 'x-coord', y: 'y-coord' }] },
        backchannelAuthenticationRequestSigningAlg: 'PS256',
      });
      await dir.applications.create(app);
      assert.deepEqual(await dir.applications.get(tenantId, app.appId), app);
      const changed = await dir.applications.update(tenantId, app.appId, {
        backchannelAuthenticationRequestSigningAlg: 'ES256',
        updatedAt: 2,
      });
      assert.equal(changed?.backchannelAuthenticationRequestSigningAlg, 'ES256');
      assert.equal(
        (await dir.applications.findByClientId(app.clientId))?.backchannelAuthenticationRequestSigningAlg,
        'ES256',
      );
      const cleared = await dir.applications.update(tenantId, app.appId, {
        backchannelAuthenticationRequestSigningAlg: undefined,
        updatedAt: 3,
      });
      assert.equal('backchannelAuthenticationRequestSigningAlg' in (cleared ?? {}), false);
      assert.equal(cleared?.tokenEndpointAuthMethod, 'private_key_jwt');
    });

    it('applications: the security profile is stored exactly, read back and cleared', async () => {
      const tenantId = uid();
      const app = sampleApplication(tenantId, {
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwks: { keys: [{ kty: 'EC', crv: 'P-256', kid: 'k1', x: 'x-coord', y: 'y-coord' }] },
        securityProfile: 'fapi2',
      });
      await dir.applications.create(app);
      assert.deepEqual(await dir.applications.get(tenantId, app.appId), app);
      const listed = (await dir.applications.list(tenantId)).find((a) => a.appId === app.appId);
      assert.equal(listed?.securityProfile, 'fapi2');
      const cleared = await dir.applications.update(tenantId, app.appId, {
        securityProfile: undefined,
        updatedAt: 2,
      });
      assert.equal('securityProfile' in (cleared ?? {}), false);
      assert.equal('securityProfile' in ((await dir.applications.get(tenantId, app.appId)) ?? {}), false);
      const again = await dir.applications.update(tenantId, app.appId, {
        securityProfile: 'fapi2',
        updatedAt: 3,
      });
      assert.equal(again?.securityProfile, 'fapi2');
    });

    it('applications: a public client without optional settings round-trips without invented fields', async () => {
      const tenantId = uid();
      const app = sampleApplication(tenantId, {
        clientType: 'public',
        clientSecretHash: undefined,
        clientSecretSealed: undefined,
        auxLinkPrefix: undefined,
        registrationRedirectUri: undefined,
        ciba: { mode: 'poll', strictErrors: false },
      });
      await dir.applications.create(app);
      const stored = await dir.applications.get(tenantId, app.appId);
      assert.deepEqual(stored, JSON.parse(JSON.stringify(app)));
      assert.equal(stored && 'clientSecretHash' in stored, false);
    });

    it('applications: replaceSecret sets hash and sealed copy within the tenant, never on a public client', async () => {
      const tenantId = uid();
      const app = sampleApplication(tenantId);
      const pub = sampleApplication(tenantId, { clientType: 'public', clientSecretHash: undefined });
      await dir.applications.create(app);
      await dir.applications.create(pub);
      const secret = { clientSecretHash: 'h2', clientSecretSealed: 'v1.k2.a.b.c', updatedAt: 9 };
      assert.equal(await dir.applications.replaceSecret(uid(), app.appId, secret), undefined);
      assert.equal(await dir.applications.replaceSecret(tenantId, pub.appId, secret), undefined);
      assert.deepEqual(await dir.applications.replaceSecret(tenantId, app.appId, secret), {
        ...app,
        ...secret,
      });
      assert.deepEqual(await dir.applications.get(tenantId, app.appId), { ...app, ...secret });
      assert.equal((await dir.applications.get(tenantId, pub.appId))?.clientSecretHash, undefined);
    });

    it('applications: setClientType switches within the tenant, adding or removing the secret hash and sealed copy', async () => {
      const tenantId = uid();
      const app = sampleApplication(tenantId, { clientSecretSealed: 'v1.k1.a.b.c' });
      await dir.applications.create(app);
      assert.equal(
        await dir.applications.setClientType(uid(), app.appId, { clientType: 'public', updatedAt: 5 }),
        undefined,
      );
      const pub = await dir.applications.setClientType(tenantId, app.appId, {
        clientType: 'public',
        updatedAt: 7,
      });
      assert.equal(pub?.clientType, 'public');
      assert.equal(pub && 'clientSecretHash' in pub, false);
      assert.equal(pub && 'clientSecretSealed' in pub, false);
      const stored = await dir.applications.get(tenantId, app.appId);
      assert.deepEqual(
        [stored?.clientType, stored?.clientSecretHash, stored?.clientSecretSealed, stored?.updatedAt],
        ['public', undefined, undefined, 7],
      );
      const secret = { clientSecretHash: 'h3', clientSecretSealed: 'v1.k3.a.b.c' };
      const conf = await dir.applications.setClientType(tenantId, app.appId, {
        clientType: 'confidential',
        ...secret,
        updatedAt: 9,
      });
      assert.deepEqual(conf, { ...app, ...secret, clientType: 'confidential', updatedAt: 9 });
      assert.deepEqual(await dir.applications.get(tenantId, app.appId), conf);
    });

    it('applications: another tenant can neither read, list, update nor remove them', async () => {
      const owner = uid();
      const other = uid();
      const app = sampleApplication(owner);
      await dir.applications.create(app);
      assert.equal(await dir.applications.get(other, app.appId), undefined);
      assert.deepEqual(await dir.applications.list(other), []);
      assert.equal(
        await dir.applications.update(other, app.appId, { name: 'stolen', updatedAt: 2 }),
        undefined,
      );
      assert.equal(await dir.applications.remove(other, app.appId), undefined);
      assert.equal((await dir.applications.get(owner, app.appId))?.name, 'Shop');
    });

    it('applications: update sets given fields, clears undefined ones, keeps the rest; list oldest first', async () => {
      const tenantId = uid();
      const first = sampleApplication(tenantId, { createdAt: 5 });
      const second = sampleApplication(tenantId, { createdAt: 6 });
      await dir.applications.create(second);
      await dir.applications.create(first);
      const updated = await dir.applications.update(tenantId, first.appId, {
        name: 'Shop 2',
        redirectUris: ['https://new.example/cb'],
        auxLinkPrefix: undefined,
        updatedAt: 7,
      });
      const { auxLinkPrefix: _cleared, ...rest } = first;
      assert.deepEqual(updated, {
        ...rest,
        name: 'Shop 2',
        redirectUris: ['https://new.example/cb'],
        updatedAt: 7,
      });
      assert.deepEqual(
        (await dir.applications.list(tenantId)).map((a) => a.appId),
        [first.appId, second.appId],
      );
      assert.deepEqual(await dir.applications.remove(tenantId, second.appId), second);
      assert.equal(await dir.applications.findByClientId(second.clientId), undefined);
    });

    it('credentials: revoked once, only by their tenant; found by id for authentication', async () => {
      const tenantId = uid();
      const creds = { tenantId, credentialsId: uid(), secretHash: 'h', createdAt: 1 };
      await dir.credentials.create(creds);
      await assert.rejects(dir.credentials.create({ ...creds, tenantId: uid() }), DuplicateKeyError);
      assert.deepEqual(await dir.credentials.findById(creds.credentialsId), creds);
      assert.equal(await dir.credentials.get(uid(), creds.credentialsId), undefined);
      assert.equal(await dir.credentials.revoke(uid(), creds.credentialsId, 5), undefined);
      assert.deepEqual(await dir.credentials.revoke(tenantId, creds.credentialsId, 5), {
        ...creds,
        revokedAt: 5,
      });
      assert.equal(await dir.credentials.revoke(tenantId, creds.credentialsId, 9), undefined);
      assert.deepEqual(await dir.credentials.get(tenantId, creds.credentialsId), { ...creds, revokedAt: 5 });
      assert.deepEqual(await dir.credentials.list(tenantId), [{ ...creds, revokedAt: 5 }]);
    });

    it('admins: recorded on first sight, lastSeenAt only moves forward', async () => {
      const email = `${uid()}@example.com`;
      await dir.admins.touch(email, 100);
      await dir.admins.touch(email, 300);
      await dir.admins.touch(email, 200);
      const found = (await dir.admins.list()).filter((a) => a.email === email);
      assert.deepEqual(found, [{ email, createdAt: 100, lastSeenAt: 300 }]);
    });
  });
}
