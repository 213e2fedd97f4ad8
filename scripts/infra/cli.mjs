#!/usr/bin/env node
// CLI for Sesame's local infra: a thin wrapper over ./index.mjs.
// Usage: node scripts/infra/cli.mjs up|down|status|env [--json]|start <svc>|stop <svc>
import path from 'node:path';
import { NAMES, down, env, start, status, stop, up } from './index.mjs';
import { tail } from './lib.mjs';

const USAGE = `usage: node scripts/infra/cli.mjs <command>

  up             install what is missing (cached), start ${NAMES.join(', ')}, wait until ready
  down           stop all servers (SIGTERM, then SIGKILL after a timeout)
  status         one line per server: state, pid, port
  env [--json]   print the SESAME_* connection variables (shell exports, or JSON)
  start <svc>    start one server (${NAMES.join('|')})
  stop <svc>     stop one server

Ports: SESAME_INFRA_REDIS_PORT (16379), SESAME_INFRA_KAFKA_PORT (19092; controller +1),
SESAME_INFRA_MONGO_PORT (27117), SESAME_INFRA_SMTP_PORT (12525; mailbox API +1). State, logs and pids live in .sesame/infra/.`;

const log = (msg) => console.log(msg);

function report(name, error) {
  const prefix = name && !String(error.message).startsWith(name) ? `${name}: ` : '';
  console.error(`✗ ${prefix}${error.message}`);
  if (error.name !== 'InfraError' && error.stack) console.error(error.stack);
  // process/install failures carry the log that explains them
  const logFile = error.logFile;
  const lines = logFile ? tail(logFile, 30) : '';
  if (lines) {
    console.error(`--- last 30 lines of ${path.relative(process.cwd(), logFile) || logFile} ---`);
    console.error(lines);
    console.error('---');
  }
}

function needService(arg) {
  if (!NAMES.includes(arg)) {
    console.error(
      `expected a server name (${NAMES.join('|')}), got ${arg ? `"${arg}"` : 'nothing'}\n\n${USAGE}`,
    );
    process.exit(2);
  }
  return arg;
}

async function main(argv) {
  const [cmd, arg] = argv.filter((a) => !a.startsWith('--'));
  const json = argv.includes('--json');
  switch (cmd) {
    case 'up':
      try {
        await up({ log });
      } catch (e) {
        if (!e.failures) throw e;
        for (const f of e.failures) report(f.name, f.error);
        console.error(`✗ ${e.message}`);
        return 1;
      }
      return 0;
    case 'down':
      await down({ log });
      return 0;
    case 'status': {
      const rows = await status();
      if (json) console.log(JSON.stringify(rows, null, 2));
      else {
        for (const r of rows) {
          const note = r.state === 'stopped' && r.portInUse ? '  (port in use by another process)' : '';
          console.log(
            `${r.name.padEnd(6)} ${r.state.padEnd(12)} pid=${String(r.pid ?? '-').padEnd(8)} port=${r.port}${note}`,
          );
        }
      }
      return 0;
    }
    case 'env': {
      const vars = env();
      if (json) console.log(JSON.stringify(vars, null, 2));
      else for (const [k, v] of Object.entries(vars)) console.log(`export ${k}=${v}`);
      return 0;
    }
    case 'start': {
      const name = needService(arg);
      try {
        await start(name, { log });
      } catch (e) {
        report(name, e);
        return 1;
      }
      return 0;
    }
    case 'stop':
      await stop(needService(arg), { log });
      return 0;
    case 'help':
    case undefined:
      console.log(USAGE);
      return cmd ? 0 : 2;
    default:
      console.error(`unknown command "${cmd}"\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    report(null, e);
    process.exit(1);
  },
);
