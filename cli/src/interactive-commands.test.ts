import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import { repoRoot } from '@sesame/testing';
import { interactiveCommands } from './interactive-commands';

// The worked example of docs/interactive-init.md.
const TOKEN = 'at_3q2rJ9XoV7mPZk1fGJm0cQ8sYt4uWbNe5aLhDvKp';
const SECRET = 'sk_demo_Xy7Pq2Lm9Rt4Vw8Zb1Nc6Hd3Fg5Jk0Ms';
const BODY =
  '{"redirect_uri":"https://shop.example/devices/done","purpose":"device_enrollment","state":"s-42"}';
const TIMESTAMP = '1767225600';
const NONCE = 'q8VdYc3m2LkP0sT9xW1zAg';
const SIGNATURE = 'oMOfJ6BQvhjp4zRVuVaAPmo6pG4YG0IhN_Z8ucmVyjY';
const HEADER = `Sesame AccessToken ${TOKEN}; t=${TIMESTAMP},n=${NONCE},s=${SIGNATURE}`;
const EXAMPLE = [
  '--token',
  TOKEN,
  '--secret',
  SECRET,
  '--body',
  BODY,
  '--timestamp',
  TIMESTAMP,
  '--nonce',
  NONCE,
];

/** The CLI as `npm run sesame --` runs it, with no admin key anywhere (no demo file, no env). */
function sesame(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'cli/src/main.ts'), ...args],
      {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', SESAME_DEMO_FILE: '/nonexistent/demo.json' },
        timeout: 30_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('CLI: interactive sign (local, no admin key)', () => {
  it('prints the Authorization value of the worked example', async () => {
    const res = await sesame(['interactive', 'sign', ...EXAMPLE]);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `${HEADER}\n`);
  });

  it('--json gives the signature and the header value', async () => {
    const res = await sesame(['interactive', 'sign', ...EXAMPLE, '--json']);
    assert.deepEqual(JSON.parse(res.stdout), {
      signature: SIGNATURE,
      timestamp: Number(TIMESTAMP),
      nonce: NONCE,
      authorization: HEADER,
    });
  });

  it('a missing --secret is a usage error (exit 2) naming it', async () => {
    const res = await sesame(['interactive', 'sign', '--token', TOKEN]);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /needs --secret/);
  });
});

describe('CLI: app rotate-secret', () => {
  it('POSTs to the application’s client-secret path and prints the new secret once', async () => {
    const calls: Array<[string, string]> = [];
    const call = (async (method: string, path: string) => {
      calls.push([method, path]);
      return { clientSecret: 'new-secret' };
    }) as never;
    const out = await interactiveCommands['app rotate-secret']!.run(call, { tenant: 't/1', app: 'a1' });
    assert.deepEqual(calls, [['POST', '/api/v1/admin/tenants/t%2F1/applications/a1/client-secret']]);
    assert.deepEqual(out.json, { clientSecret: 'new-secret' });
    assert.match(out.text.join('\n'), /clientSecret: new-secret/);
  });
});
