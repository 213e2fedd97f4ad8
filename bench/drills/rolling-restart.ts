/**
 * Drill: a rolling restart of every service under load (sign-ins and client_credentials through HAProxy), as
 * a Deployment rolls: for each replica in turn, SIGTERM (it reports unready, keeps serving while the balancer
 * takes it out, then drains), wait for it to exit, start it again, wait until the balancer routes to it, next.
 * Target: 0 failed requests, exit code 0 of every stopped replica, no event lost on the way to activity-log.
 *
 *   node --import tsx bench/drills/rolling-restart.ts     (on `npm run infra -- up`'s servers; npm run test:ha)
 */
import { type ServiceName, serviceNames } from '../cluster/cluster';
import { runDrill } from './drill';

const exitCodes: string[] = [];
await runDrill(
  'rolling-restart',
  async (cluster, mark) => {
    for (const name of serviceNames as readonly ServiceName[]) {
      for (const index of [0, 1]) {
        const old = cluster.replica(name, index);
        mark(`SIGTERM ${name}-${index} (pid ${old.child.pid})`);
        old.child.kill('SIGTERM');
        const code = await old.exited;
        if (code !== 0) exitCodes.push(`${name}-${index} exited ${code}`);
        await cluster.restart(name, index);
        if (name !== 'ciba-notifier') await cluster.waitInRotation(name, index);
      }
    }
  },
  (report) => [
    ...(report.failures > 0 ? [`${report.failures} failed requests (target 0)`] : []),
    ...exitCodes.map((e) => `${e} after SIGTERM (target 0)`),
  ],
);
