import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it, jest } from '@jest/globals';
import { inspectStoreFile } from '@sesame/embedded/store-files';
import { clientCredentials, repoRoot } from '@sesame/testing';
import { devMailCode, readDemo, startLauncher } from './embedded-launcher';
import { emailCodeSignIn, redeemAndVerify } from './http-signin';

jest.setTimeout(180_000);

/**
 * Issue 36, upgrades: `npm start` on a COPY of a store written by the previous version (the store-v1 fixture,
 * made by its make-fixture.ts) migrates it forward on start, and serves its data. (An older Sesame refusing a
 * newer store: libs/embedded-store/src/embedded-store.test.ts and embedded/src/durable-store.test.ts.)
 */
const fixture = join(repoRoot, 'embedded/src/testing/fixtures/store-v1');
/** The person make-fixture.ts signed in: the email, and the subject the ID token gave then. */
const person = JSON.parse(readFileSync(join(fixture, 'person.json'), 'utf8')) as {
  email: string;
  sub: string;
};

describe('npm start on a store written by the previous version', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'sesame-upgrade-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  /** The schema versions recorded in `file` (read from a copy, so the store itself is not touched). */
  const versionsOf = (file: string) => {
    const staging = mkdtempSync(join(tmp, 'inspect-'));
    return inspectStoreFile(file, staging);
  };

  it('migrates the KV from version 1 to 3 (the sweep’s index, the pending sign-ins’ tables), and keeps the demo client, its credentials and the person', async () => {
    const dataDir = join(tmp, 'data');
    mkdirSync(dataDir);
    copyFileSync(join(fixture, 'sesame.db'), join(dataDir, 'sesame.db'));
    const demoFile = join(tmp, 'demo.json');
    copyFileSync(join(fixture, 'demo.json'), demoFile);
    const before = versionsOf(join(dataDir, 'sesame.db'));
    assert.equal(before.kv, 1);

    const demo = readDemo(demoFile);
    const launcher = await startLauncher({ dataDir, demoFile, adminKey: demo.adminKey });
    try {
      // The demo seed did not run again: the one tenant is the fixture's.
      const tenants = await fetch(`${launcher.url}/api/v1/admin/tenants`, {
        headers: { authorization: `Bearer ${demo.adminKey}` },
      });
      assert.equal(tenants.status, 200);
      const listed = ((await tenants.json()) as { tenants: { tenantId: string }[] }).tenants;
      assert.deepEqual(
        listed.map((t) => t.tenantId),
        [demo.tenantId],
      );
      // The demo API credentials still authenticate.
      const token = await clientCredentials(`${launcher.url}/token`, demo.credentialsId, demo.apiSecret);
      assert.equal(token.status, 200, await token.clone().text());
      // The demo application still signs people in, and the person is the same one (same subject).
      const signIn = await emailCodeSignIn({
        authUrl: launcher.url,
        clientId: demo.clientId,
        redirectUri: demo.redirectUri,
        email: person.email,
        codeFor: devMailCode(launcher.url),
      });
      const claims = await redeemAndVerify({
        tokenUrl: `${launcher.url}/token`,
        jwksUrl: `${launcher.url}/jwks`,
        issuer: launcher.url,
        clientId: demo.clientId,
        clientSecret: demo.clientSecret,
        redirectUri: demo.redirectUri,
        signIn,
      });
      assert.equal(claims.sub, person.sub);
      assert.equal(claims.email, person.email);
    } finally {
      assert.equal(await launcher.stop(), 0, launcher.output().slice(-3000));
    }
    const after = versionsOf(join(dataDir, 'sesame.db'));
    assert.equal(after.kv, 3);
    // Issue 38's migrations ran too (the typed address on activity records, the people list's index on users),
    // and issue 42's: activity records' indexes on the person and the typed address hold only those that have them,
    // and the newest-first indexes ascend.
    assert.equal(after['activity-log.activity-logs'], 4);
    assert.equal(after['auth.users'], 2);
    // Every other component kept its version (nothing else had a migration to run).
    assert.deepEqual({ ...after, kv: 1, 'activity-log.activity-logs': 1, 'auth.users': 1 }, before);
  });
});
