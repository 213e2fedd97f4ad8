import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { CliError, RawBody } from './admin-client';
import { usage } from './cli';
import { commands } from './commands';

function recording(answers: Record<string, unknown>[]) {
  const calls: Array<[string, string, unknown]> = [];
  const call = (async (method: string, path: string, body?: unknown) => {
    calls.push([method, path, body]);
    return answers.shift() ?? {};
  }) as never;
  return { calls, call };
}

describe('CLI: branding get|set|reset', () => {
  it('set reads the branding and PUTs it with the changed fields (the logo left to the API)', async () => {
    const { calls, call } = recording([
      { tenantId: 't1', settings: { displayName: 'Old', cornerStyle: 'pill', logo: { hash: 'x' } } },
      {
        tenantId: 't1',
        settings: {
          displayName: 'ACME',
          cornerStyle: 'pill',
          light: { accent: '#1d4ed8', background: '#ffffff' },
        },
      },
    ]);
    const out = await commands['branding set']!.run(call, {
      tenant: 't1',
      'display-name': 'ACME',
      'light-accent': '#1d4ed8',
      'light-background': '#ffffff',
    });
    assert.deepEqual(calls, [
      ['GET', '/api/v1/admin/tenants/t1/branding', undefined],
      [
        'PUT',
        '/api/v1/admin/tenants/t1/branding',
        { displayName: 'ACME', cornerStyle: 'pill', light: { accent: '#1d4ed8', background: '#ffffff' } },
      ],
    ]);
    assert.match(out.text.join('\n'), /displayName: ACME/);
  });

  it("get and reset address an application's override with --app", async () => {
    const { calls, call } = recording([
      { tenantId: 't1', appId: 'a1', settings: {} },
      { tenantId: 't1', appId: 'a1', settings: {} },
    ]);
    const got = await commands['branding get']!.run(call, { tenant: 't1', app: 'a1' });
    await commands['branding reset']!.run(call, { tenant: 't1', app: 'a1' });
    assert.deepEqual(
      calls.map(([m, p]) => [m, p]),
      [
        ['GET', '/api/v1/admin/tenants/t1/applications/a1/branding'],
        ['DELETE', '/api/v1/admin/tenants/t1/applications/a1/branding'],
      ],
    );
    assert.equal(got.text[0], "Branding of application a1 of tenant t1: Sesame's default");
  });

  it('set without a setting is a usage error (exit 2) and writes nothing', async () => {
    const { calls, call } = recording([{ tenantId: 't1', settings: {} }]);
    await assert.rejects(
      commands['branding set']!.run(call, { tenant: 't1' }),
      (err: unknown) => err instanceof CliError && err.exitCode === 2,
    );
    assert.equal(calls.filter(([m]) => m !== 'GET').length, 0);
  });

  it('--logo uploads the file as it is, typed by its extension, after the settings', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'sesame-logo-')), 'logo.svg');
    writeFileSync(file, '<svg/>');
    const { calls, call } = recording([
      { tenantId: 't1', settings: {} },
      { tenantId: 't1', settings: {} },
    ]);
    await commands['branding set']!.run(call, { tenant: 't1', logo: file });
    assert.deepEqual(calls[0]?.slice(0, 2), ['GET', '/api/v1/admin/tenants/t1/branding']);
    const [method, path, body] = calls[1]!;
    assert.deepEqual([method, path], ['PUT', '/api/v1/admin/tenants/t1/branding/logo']);
    assert.ok(body instanceof RawBody);
    assert.equal(body.contentType, 'image/svg+xml');
    assert.equal(Buffer.from(body.bytes).toString(), '<svg/>');
    await assert.rejects(
      commands['branding set']!.run(recording([{ tenantId: 't1', settings: {} }]).call, {
        tenant: 't1',
        logo: 'x.gif',
      }),
      (err: unknown) => err instanceof CliError && err.exitCode === 2,
    );
  });

  it('the help lists them', () => {
    assert.match(usage(), /branding get --tenant TENANT_ID \[--app APP_ID\]/);
    assert.match(usage(), /branding reset --tenant TENANT_ID/);
  });
});
