// SMTP for the tests: scripts/infra/smtp-server.mjs (smtp-server + mailparser, root devDependencies) on
// Node itself, with its mailbox API on the next port.
import { createRequire } from 'node:module';
import path from 'node:path';
import { INFRA_DIR, InfraError, REPO_ROOT, ports } from './lib.mjs';
import { mailboxReady } from './probes.mjs';

const script = path.join(INFRA_DIR, 'smtp-server.mjs');

export default {
  name: 'smtp',
  port: () => ports().smtp,
  extraPorts: () => [ports().smtpApi],
  // Any checkout's smtp-server.mjs on our port is ours, as for the other servers (matched by port): a fresh
  // clone (CI) reuses a test SMTP server another checkout left running instead of failing on a busy port.
  matches: (argv) =>
    (argv[1] ?? '').endsWith(`${path.sep}scripts${path.sep}infra${path.sep}smtp-server.mjs`) &&
    argv.includes(String(ports().smtp)),
  startTimeoutMs: 20_000,
  stopTimeoutMs: 5_000,

  async install() {
    const require = createRequire(path.join(REPO_ROOT, 'package.json'));
    for (const pkg of ['smtp-server', 'mailparser']) {
      try {
        require.resolve(pkg);
      } catch {
        throw new InfraError(
          `${pkg} is not installed; run \`npm run bootstrap\` (it is a root devDependency)`,
        );
      }
    }
  },

  async prepare() {
    return {
      cmd: process.execPath,
      args: [script, '--port', String(ports().smtp), '--api-port', String(ports().smtpApi)],
      cwd: REPO_ROOT,
    };
  },

  ready: () => mailboxReady(ports().smtp, ports().smtpApi),
};
