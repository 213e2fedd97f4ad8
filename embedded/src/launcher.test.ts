import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import {
  adminKeyFor,
  exposureWarning,
  launcherEnv,
  platformFileOf,
  readAdminKey,
  removePlatformFile,
  sampleAppBanner,
  writeDemoFile,
  writePlatformFile,
} from './launcher';
import type { DemoSeed } from './seed';

const demo: DemoSeed = {
  tenantId: 't',
  appId: 'a',
  clientId: 'c',
  clientSecret: 's',
  redirectUri: 'http://localhost:3000/callback',
  credentialsId: 'k',
  apiSecret: 'x',
  ownerEmail: 'owner@example.com',
};

describe('npm start launcher', () => {
  it('binds to 127.0.0.1 unless HOST says otherwise', () => {
    assert.equal(launcherEnv.parse({ SESAME_DEMO_FILE: 'd.json' }).HOST, '127.0.0.1');
    assert.equal(launcherEnv.parse({ SESAME_DEMO_FILE: 'd.json', HOST: '0.0.0.0' }).HOST, '0.0.0.0');
  });

  it('warns when HOST is not loopback, and only then', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2'])
      assert.equal(exposureWarning(host), undefined, host);
    for (const host of ['0.0.0.0', '::', '192.0.2.10', 'example.org'])
      assert.match(exposureWarning(host) ?? '', /exposes the demo platform beyond this machine/, host);
  });

  it('generates a random admin key on the first start, keeps it mode 0600 in the demo file, reuses it after', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sesame-launcher-')), '.sesame', 'demo.json');
    const first = adminKeyFor({ SESAME_DEMO_FILE: file });
    assert.match(first, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(
      adminKeyFor({ SESAME_DEMO_FILE: file }),
      first,
      'a fresh key each time until one is kept',
    );
    writeDemoFile(file, { ...demo, adminKey: first, issuer: 'http://localhost:8080' });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(readAdminKey(file), first);
    assert.equal(adminKeyFor({ SESAME_DEMO_FILE: file }), first);
    assert.equal(
      adminKeyFor({ SESAME_DEMO_FILE: file, SESAME_ADMIN_KEY: 'given-key-0123456789' }),
      'given-key-0123456789',
    );
  });

  it('names the sample app as the next step: the command, its URL (the demo redirect URI’s origin) and the demo file it reads', () => {
    const lines = sampleAppBanner('/x/.sesame/demo.json').join('\n');
    assert.match(lines, /next step: run `npm run example`/);
    assert.match(lines, /open http:\/\/localhost:3000 and click Sign in/);
    assert.equal(new URL(demo.redirectUri).origin, 'http://localhost:3000');
    assert.match(lines, /\/x\/\.sesame\/demo\.json/);
  });

  it('writes where this start listens beside the demo file for the CLI, and removes only its own file on stop', () => {
    const demoFile = join(mkdtempSync(join(tmpdir(), 'sesame-platform-')), 'demo.json');
    const file = platformFileOf(demoFile);
    assert.equal(file, join(demoFile, '../platform.json'));
    writePlatformFile(demoFile, {
      adminUrl: 'http://127.0.0.1:4321',
      issuer: 'http://127.0.0.1:4321',
      pid: 42,
    });
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
      adminUrl: 'http://127.0.0.1:4321',
      issuer: 'http://127.0.0.1:4321',
      pid: 42,
    });
    removePlatformFile(demoFile, 43); // another start's stop: the file stays
    assert.equal(existsSync(file), true);
    removePlatformFile(demoFile, 42);
    assert.equal(existsSync(file), false);
  });
});
