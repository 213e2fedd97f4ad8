/**
 * Drill: kill -9 one replica of each service in turn under load (sign-ins and client_credentials through
 * HAProxy), each brought back before the next kill. Targets: at most 1 s of errors per kill, every failure a
 * 503 with Retry-After, no event lost on the way to activity-log.
 *
 *   node --import tsx bench/drills/replica-kill.ts     (on `npm run infra -- up`'s servers; npm run test:ha)
 */
import { sleep } from '@sesame/testing';
import { type ServiceName, serviceNames } from '../cluster/cluster';
import { runDrill } from './drill';

const maxErrorWindowMs = Number(process.env.DRILL_MAX_ERROR_WINDOW_MS ?? 1000);

await runDrill(
  'replica-kill',
  async (cluster, mark) => {
    for (const name of serviceNames as readonly ServiceName[]) {
      const victim = cluster.replica(name, 0);
      mark(`kill -9 ${name}-0 (pid ${victim.child.pid})`);
      victim.child.kill('SIGKILL');
      await sleep(2000);
      await cluster.restart(name, 0);
      if (name !== 'ciba-notifier') await cluster.waitInRotation(name, 0);
      await sleep(1000);
    }
  },
  (report) =>
    report.faults
      .filter((f) => f.error_window_ms > maxErrorWindowMs)
      .map((f) => `${f.fault}: errors for ${f.error_window_ms} ms (target ≤ ${maxErrorWindowMs} ms)`),
);
