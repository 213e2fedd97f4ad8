/**
 * The sign-in funnel (libs/flow-events/src/funnel.ts, which activity-log feeds every flow event it consumes) at
 * its limit of open flows: CPU per sign-in start (its two events, auth_start_oidc and desktop_login_page) once
 * BENCH_OPEN flows are open and every start drops the quietest, as during a flood of sign-in starts.
 *
 *   npm run bench -- funnel     (BENCH_OPEN=100000 BENCH_STARTS=300000 BENCH_ROUNDS=3)
 *
 * It also prints the heap the funnel holds at its limit: run it with node's --expose-gc for that figure
 * (`node --expose-gc --import tsx bench/funnel.bench.ts`); without it the figure includes uncollected garbage.
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

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

/** One round: the funnel filled to its limit, then `starts` more starts timed; its heap taken while it lives. */
function round(n: number) {
  let untracked = 0;
  const funnel = createSigninFunnel({
    counters: { stage: () => {}, untracked: () => untracked++ },
    maxOpenFlows: openFlows,
  });
  const start = (i: number) => {
    const id = `flow-${n}-${i}-0123456789abcdef0123`;
    funnel.observe(event(id, 'auth_start_oidc'));
    // Each event is decoded on its own in activity-log: its flow id is a string of its own, as here.
    funnel.observe(event(Buffer.from(id).toString(), 'desktop_login_page'));
  };
  for (let i = 0; i < openFlows; i++) start(i);
  const cpu = process.cpuUsage();
  for (let i = openFlows; i < openFlows + starts; i++) start(i);
  const used = process.cpuUsage(cpu);
  return { us: (used.user + used.system) / starts, heapWith: heap(), open: funnel.open, untracked };
}

const perStart: number[] = [];
for (let n = 1; n <= rounds; n++) {
  const { us, heapWith, open, untracked } = round(n);
  const held = (heapWith - heap()) / 1e6;
  perStart.push(us);
  console.log(
    `round ${n}: ${us.toFixed(2)} µs CPU per start at ${open} open flows (${untracked} dropped); the funnel holds ${held.toFixed(1)} MB of heap`,
  );
}
console.log(`median of ${rounds} rounds: ${median(perStart).toFixed(2)} µs CPU per start (two events)`);
