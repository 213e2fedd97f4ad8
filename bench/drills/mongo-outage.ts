/**
 * Drill: the MongoDB-wire server stopped for 30 s under load (sign-ins and client_credentials through
 * HAProxy). The drill runs a FerretDB of its own (the infra's binary, a fresh SQLite directory, a free port)
 * so that the shared server is never touched, stops it (SIGTERM: connections refused), and starts it again on
 * the same port and data 30 s later. Targets: every failure a 503 with Retry-After, none later than 10 s
 * after the server is back, no answered token forgotten, no event lost on the way to activity-log.
 *
 *   node --import tsx bench/drills/mongo-outage.ts     (on `npm run infra -- up`'s servers; npm run test:ha)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { portForChild, repoRoot, sleep } from '@sesame/testing';
import { runDrill } from './drill';

const outageMs = Number(process.env.DRILL_MONGO_OUTAGE_MS ?? 30_000);
const maxRecoveryMs = Number(process.env.DRILL_MAX_RECOVERY_MS ?? 10_000);

const { FERRETDB_BIN } = (await import(join(repoRoot, 'scripts/infra/mongo.mjs'))) as {
  FERRETDB_BIN: string;
};
const port = await portForChild();
const dir = mkdtempSync(join(tmpdir(), 'sesame-drill-mongo-'));
let ferret: ChildProcess | undefined;

const listening = () =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function startFerret(): Promise<void> {
  ferret = spawn(
    FERRETDB_BIN,
    [
      '--handler=sqlite',
      `--sqlite-url=file:${dir}/`,
      `--listen-addr=127.0.0.1:${port}`,
      '--debug-addr=-',
      '--telemetry=disable',
      `--state-dir=${dir}`,
      '--log-level=warn',
    ],
    { cwd: dir, stdio: 'ignore' },
  );
  const deadline = Date.now() + 30_000;
  while (!(await listening())) {
    if (ferret.exitCode !== null) throw new Error(`ferretdb exited with ${ferret.exitCode}`);
    if (Date.now() > deadline) throw new Error(`ferretdb not listening on ${port} after 30 s`);
    await sleep(100);
  }
}

async function stopFerret(): Promise<void> {
  const child = ferret;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

await startFerret();
process.env.SESAME_MONGO_URL = `mongodb://127.0.0.1:${port}/sesame`;
process.once('exit', () => {
  ferret?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

await runDrill(
  'mongo-outage',
  async (_cluster, mark) => {
    mark(`stop the MongoDB-wire server (:${port}) for ${outageMs / 1000} s`);
    await stopFerret();
    await sleep(outageMs);
    mark('MongoDB-wire server started again');
    await startFerret();
    await sleep(15_000);
  },
  (report) => {
    const back = report.faults[1];
    return back && back.errors_until_ms > maxRecoveryMs
      ? [`last failure ${back.errors_until_ms} ms after the server was back (target ≤ ${maxRecoveryMs} ms)`]
      : [];
  },
);
