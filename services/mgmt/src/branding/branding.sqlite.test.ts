import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { tempEngines } from '@sesame/embedded-store/testing';
import { brandingContract } from './branding.contract';
import type { BrandingRecord, MailTemplateRecord } from './repository';
import { sqliteBranding } from './sqlite';

const engines = tempEngines('mgmt-branding');

brandingContract('sqlite', async () => sqliteBranding(engines.open()));

describe('branding on the embedded engine', () => {
  it('keeps branding (logo bytes included), app overrides and mail templates across a close and a new open', async () => {
    const dir = engines.dir();
    let engine = engines.open(dir);
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

    engine = engines.open(dir);
    repo = sqliteBranding(engine);
    assert.deepEqual(await repo.get('t-1'), tenant);
    assert.deepEqual(await repo.get('t-1', 'a-1'), app);
    assert.deepEqual(await repo.templates('t-1'), [template]);
  });
});
