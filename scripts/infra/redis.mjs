// Redis: the Debian `redis-server` package, started detached on loopback without persistence.
import path from 'node:path';
import { RUNTIME_DIR, mkdirp, ports, which } from './lib.mjs';
import { redisPing } from './probes.mjs';
import { ensureApt } from './proc.mjs';

const dir = path.join(RUNTIME_DIR, 'redis');

export default {
  name: 'redis',
  port: () => ports().redis,
  extraPorts: () => [],
  // our redis: "redis-server … --port <port>" at exec time, then it rewrites its
  // process title to "redis-server 127.0.0.1:<port>"
  matches(argv) {
    const port = String(ports().redis);
    if (argv.length === 1)
      return new RegExp(`(^|/)redis-server 127\\.0\\.0\\.1:${port}$`).test(argv[0].trim());
    return (
      path.basename(argv[0]) === 'redis-server' && argv.some((a, i) => a === '--port' && argv[i + 1] === port)
    );
  },
  startTimeoutMs: 30_000,
  stopTimeoutMs: 10_000,

  async install({ log, logFile }) {
    await ensureApt('redis-server', 'redis-server', { log, logFile });
  },

  async prepare() {
    mkdirp(dir);
    return {
      cmd: which('redis-server'),
      args: [
        '--port',
        String(ports().redis),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
        '--dir',
        dir,
        '--protected-mode',
        'yes',
        '--loglevel',
        'notice',
      ],
      cwd: dir,
    };
  },

  ready: () => redisPing(ports().redis),
};
