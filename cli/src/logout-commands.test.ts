import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { CliError } from './admin-client';
import { usage } from './cli';
import { commands } from './commands';
import { recording } from './recording-call';

const command = commands['app logout']!;

describe('CLI: app logout', () => {
  it('PATCHes the post-logout redirect URIs and back-channel settings given, and prints them', async () => {
    const { calls, call } = recording({
      appId: 'a1',
      postLogoutRedirectUris: ['https://rp.example/bye'],
      backchannelLogoutUri: 'https://rp.example/bcl',
      backchannelLogoutSessionRequired: true,
    });
    const out = await command.run(call, {
      tenant: 't1',
      app: 'a1',
      'post-logout-redirect-uri': ['https://rp.example/bye'],
      'backchannel-logout-uri': 'https://rp.example/bcl',
      'backchannel-session-required': 'on',
    });
    assert.deepEqual(calls, [
      [
        'PATCH',
        '/api/v1/admin/tenants/t1/applications/a1',
        {
          postLogoutRedirectUris: ['https://rp.example/bye'],
          backchannelLogoutUri: 'https://rp.example/bcl',
          backchannelLogoutSessionRequired: true,
        },
      ],
    ]);
    assert.deepEqual(out.json, {
      appId: 'a1',
      postLogoutRedirectUris: ['https://rp.example/bye'],
      backchannelLogoutUri: 'https://rp.example/bcl',
      backchannelLogoutSessionRequired: true,
    });
    assert.match(
      out.text.join('\n'),
      /back-channel logout URI: +https:\/\/rp\.example\/bcl \(sid required\)/,
    );
  });

  it('none clears: [] for the redirect URIs, null for the back-channel URI', async () => {
    const { calls, call } = recording({ appId: 'a1' });
    await command.run(call, {
      tenant: 't1',
      app: 'a1',
      'post-logout-redirect-uri': ['none'],
      'backchannel-logout-uri': 'none',
    });
    assert.deepEqual(calls[0]![2], { postLogoutRedirectUris: [], backchannelLogoutUri: null });
  });

  it('nothing to change, or a bad on|off, is a usage error (exit 2) and calls nothing', async () => {
    const { calls, call } = recording({});
    for (const o of [
      { tenant: 't1', app: 'a1' },
      { tenant: 't1', app: 'a1', 'backchannel-session-required': 'yes' },
    ]) {
      await assert.rejects(
        command.run(call, o),
        (err: unknown) => err instanceof CliError && err.exitCode === 2,
      );
    }
    assert.deepEqual(calls, []);
  });

  it('the help lists it', () => {
    assert.match(usage(), /app logout --tenant TENANT_ID --app APP_ID \[--post-logout-redirect-uri URI/);
  });
});
