import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from '@jest/globals';
import { EmbeddedStore } from '@sesame/embedded-store';
import { brandingContract } from './branding.contract';
import type { BrandingRecord, MailTemplateRecord } from './repository';
import { sqliteBranding } from './sqlite';

const dirs: string[] = [];
const engines: EmbeddedStore[] = [];
const open = (dir: string) => {
  const engine = EmbeddedStore.open({ dir });
  engines.push(engine);
  return engine;
};
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sesame-mgmt-branding-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const engine of engines) engine.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

brandingContract('sqlite', async () => sqliteBranding(open(tempDir())));

describe('branding on the embedded engine', () => {
  it('keeps branding (logo bytes included), app overrides and mail templates across a close and a new open', async () => {
    const dir = tempDir();
    let engine = open(dir);
    let repo = sqliteBranding(engine);
    const tenant: BrandingRecord = {
      tenantId: 't-1',
      settings: { displayName: 'ACME', light: { accent: '#1d4ed8', background: '#ffffff' } },
      logo: {
        contentType: 'image/png',
        hash: '0123456789',
        data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]),
      },
      updatedAt: 10,
    };
    const app: BrandingRecord = {
      tenantId: 't-1',
      appId: 'a-1',
      settings: { displayName: 'Shop' },
      updatedAt: 11,
    };
    const template: MailTemplateRecord = {
      tenantId: 't-1',
      kind: 'admin-invitation',
      locale: 'de',
      template: {
        subject: 'Einladung',
        preheader: 'Hallo',
        heading: 'Willkommen',
        body: 'Bitte',
        button: 'Annehmen',
      },
      updatedAt: 12,
    };
    await repo.put(tenant);
    await repo.put(app);
    await repo.putTemplate(template);
    engine.close();

    engine = open(dir);
    repo = sqliteBranding(engine);
    assert.deepEqual(await repo.get('t-1'), tenant);
    assert.deepEqual(await repo.get('t-1', 'a-1'), app);
    assert.deepEqual(await repo.templates('t-1'), [template]);
  });
});
