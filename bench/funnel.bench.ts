/**
 * The sign-in funnel (libs/flow-events/src/funnel.ts, which activity-log feeds every flow event it consumes) at
 * its limit of open flows: CPU per sign-in start (its two events, auth_start_oidc and desktop_login_page) once
 * BENCH_OPEN flows are open and every start drops the quietest, as during a flood of sign-in starts.
 *
 *   npm run bench -- funnel     (BENCH_OPEN=100000 BENCH_STARTS=300000 BENCH_ROUNDS=3)
 *
 * Compare two commits by running it in each checkout.
 */
import { createSigninFunnel } from '@sesame/flow-events';
import { median } from './support';

const openFlows = Number(process.env.BENCH_OPEN ?? 100_000);
const starts = Number(process.env.BENCH_STARTS ?? 300_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

const event = (flowId: string, action: string) => ({
  eventId: `${flowId}-${action}`,
  flowId,
  tenantId: 't',
  appId: 'app-1',
  timestamp: 0,
  action,
  clientIp: '192.0.2.1',
  details: {},
});

const perStart: number[] = [];
for (let round = 1; round <= rounds; round++) {
  let untracked = 0;
  const funnel = createSigninFunnel({
    counters: { stage: () => {}, untracked: () => untracked++ },
    maxOpenFlows: openFlows,
  });
  const start = (i: number) => {
    const id = `flow-${round}-${i}-0123456789abcdef0123`;
    funnel.observe(event(id, 'auth_start_oidc'));
    funnel.observe(event(id, 'desktop_login_page'));
  };
  for (let i = 0; i < openFlows; i++) start(i);
  const cpu = process.cpuUsage();
  for (let i = openFlows; i < openFlows + starts; i++) start(i);
  const used = process.cpuUsage(cpu);
  const us = (used.user + used.system) / starts;
  perStart.push(us);
  console.log(
    `round ${round}: ${us.toFixed(2)} µs CPU per start at ${funnel.open} open flows (${untracked} dropped, ${funnel.queued} queued)`,
  );
}
console.log(`median of ${rounds} rounds: ${median(perStart).toFixed(2)} µs CPU per start (two events)`);
