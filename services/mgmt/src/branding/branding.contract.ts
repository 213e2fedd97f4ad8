import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { DEFAULT_TEMPLATES, type MailKind, type MailLocale, type MailTemplate } from '@sesame/branding';
import { openedForSuite } from '@sesame/testing/suite';
import type { BrandingRecord, BrandingRepository } from './repository';

/** The behaviour every branding adapter must have; run against the in-memory and the Mongo adapter. */
export function brandingContract(adapter: string, make: () => Promise<BrandingRepository>): void {
  describe(`branding contract: ${adapter}`, () => {
    const repo = openedForSuite(make);
    const tenant = (): BrandingRecord => ({
      tenantId: randomUUID(),
      settings: {
        displayName: 'ACME',
        light: { accent: '#1d4ed8', background: '#ffffff' },
        cornerStyle: 'pill',
        mailReplyTo: 'help@acme.example',
      },
      logo: {
        contentType: 'image/png',
        hash: '0123456789',
        data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
      },
      updatedAt: 10,
    });

    it('stores a tenant record exactly (logo bytes included), replaces it, removes it', async () => {
      const rec = tenant();
      assert.equal(await repo.get(rec.tenantId), undefined);
      await repo.put(rec);
      const got = await repo.get(rec.tenantId);
      assert.deepEqual(got, rec);
      assert.ok(Buffer.isBuffer(got?.logo?.data));
      const { logo: _logo, ...withoutLogo } = rec;
      const next = { ...withoutLogo, settings: { displayName: 'ACME 2' }, updatedAt: 20 };
      await repo.put(next);
      assert.deepEqual(await repo.get(rec.tenantId), next, 'put replaces the whole record');
      assert.equal(await repo.remove(rec.tenantId), true);
      assert.equal(await repo.remove(rec.tenantId), false);
      assert.equal(await repo.get(rec.tenantId), undefined);
    });

    it("keeps an application's override apart from its tenant's and from another tenant's", async () => {
      const rec = tenant();
      const app = {
        tenantId: rec.tenantId,
        appId: 'app-1',
        settings: { displayName: 'Shop' },
        updatedAt: 30,
      };
      await repo.put(rec);
      await repo.put(app);
      assert.deepEqual(await repo.get(rec.tenantId, 'app-1'), app);
      assert.deepEqual(await repo.get(rec.tenantId), rec);
      assert.equal(await repo.get(randomUUID(), 'app-1'), undefined, "another tenant's app id finds nothing");
      assert.equal(await repo.remove(randomUUID(), 'app-1'), false);
      assert.equal(await repo.remove(rec.tenantId, 'app-1'), true);
      assert.deepEqual(
        await repo.get(rec.tenantId),
        rec,
        "removing the override leaves the tenant's branding",
      );
    });

    it("mail templates: per tenant, kind and locale, replaced, removed; never another tenant's", async () => {
      const a = randomUUID();
      const b = randomUUID();
      const template = { ...DEFAULT_TEMPLATES.en['sign-in-code'], subject: 'ACME code {{code}}' };
      const put = (
        tenantId: string,
        kind: MailKind,
        locale: MailLocale,
        t: MailTemplate,
        updatedAt: number,
      ) => repo.putTemplate({ tenantId, kind, locale, template: t, updatedAt });
      await put(a, 'sign-in-code', 'en', template, 1);
      await put(a, 'magic-link', 'de', DEFAULT_TEMPLATES.de['magic-link'], 2);
      await put(b, 'sign-in-code', 'en', DEFAULT_TEMPLATES.en['sign-in-code'], 3);
      const changed = { ...template, subject: 'ACME: {{code}}' };
      await put(a, 'sign-in-code', 'en', changed, 4);
      assert.deepEqual(await repo.templates(a), [
        {
          tenantId: a,
          kind: 'magic-link',
          locale: 'de',
          template: DEFAULT_TEMPLATES.de['magic-link'],
          updatedAt: 2,
        },
        { tenantId: a, kind: 'sign-in-code', locale: 'en', template: changed, updatedAt: 4 },
      ]);
      assert.equal(await repo.removeTemplate(a, 'sign-in-code', 'en'), true);
      assert.equal(await repo.removeTemplate(a, 'sign-in-code', 'en'), false);
      assert.deepEqual(
        (await repo.templates(a)).map((t) => t.kind),
        ['magic-link'],
      );
      assert.equal((await repo.templates(b)).length, 1);
      assert.deepEqual(await repo.templates(randomUUID()), []);
    });
  });
}
