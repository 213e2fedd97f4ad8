import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { clientCredentials, repoRoot } from '@sesame/testing';

/** The CLI as `npm run sesame --` runs it (after bootstrap), printing one JSON object. */
export function sesame(
  platform: { url: string; adminKey: string },
  ...args: string[]
): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'cli/src/main.ts'), ...args, '--json', '--url', platform.url],
      {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', SESAME_ADMIN_KEY: platform.adminKey },
        timeout: 30_000,
      },
      (err, stdout, stderr) =>
        err ? reject(new Error(`sesame ${args.join(' ')}: ${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

/** A management API bearer token from /token client_credentials (scope svc_admin_api). */
export async function managementToken(
  url: string,
  credentialsId: string,
  apiSecret: string,
): Promise<string> {
  const res = await clientCredentials(`${url}/token`, credentialsId, apiSecret);
  assert.equal(res.status, 200, `/token with API credentials: ${await res.clone().text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
