/**
 * CPU per flow event encoded and decoded, in process (issue 42): `encodeFlowEvent` as every producer calls it
 * (one writer reused, libs/proto's reusingWriter), the same message through ts-proto's encode with a fresh
 * writer each time (what it did before), and `decodeFlowEvent` as activity-log calls it. The event is a sign-in
 * page's: ids, an address, a trace id and the browser's device info (278 bytes).
 *
 *   node --import tsx bench/flow-event-codec.ts     (BENCH_EVENTS=300000 BENCH_ROUNDS=3)
 */
import { type FlowEventFacts, decodeFlowEvent, encodeFlowEvent } from '@sesame/flow-events';
import { events } from '@sesame/proto';
import { median } from './support';

const count = Number(process.env.BENCH_EVENTS ?? 300_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

const facts: FlowEventFacts = {
  eventId: '0190f0e2-7a1b-7c3d-8e4f-0123456789ab',
  flowId: '0190f0e2-7a1b-7c3d-8e4f-0123456789ac',
  tenantId: 'demo-tenant',
  appId: 'demo-app-0001',
  timestamp: 1_764_633_600_000,
  action: 'desktop_login_page',
  clientIp: '203.0.113.7',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  accessingDevice: 'dev-7f3a9c2e1b',
  accessingDeviceInfo: {
    osType: 'Linux',
    osVersion: 'x86_64',
    browserType: 'Chrome',
    browserVersion: '131.0.0.0',
    detectedName: 'Chrome on Linux',
  },
  accessingIp: '203.0.113.7',
  flowType: 'authentication',
  details: {},
};
const bytes = encodeFlowEvent(facts);
const message = events.FlowEvent.decode(bytes);

const perEvent = (work: () => unknown) => {
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) work();
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / count;
};

const rows = { reused: [] as number[], fresh: [] as number[], decode: [] as number[] };
for (let round = 1; round <= rounds; round++) {
  rows.reused.push(perEvent(() => encodeFlowEvent(facts)));
  rows.fresh.push(perEvent(() => events.FlowEvent.encode(message).finish()));
  rows.decode.push(perEvent(() => decodeFlowEvent(bytes)));
  console.log(
    `round ${round}: encodeFlowEvent ${rows.reused.at(-1)!.toFixed(2)} µs, ts-proto encode with a fresh writer ` +
      `${rows.fresh.at(-1)!.toFixed(2)} µs, decodeFlowEvent ${rows.decode.at(-1)!.toFixed(2)} µs (${bytes.length} bytes)`,
  );
}
const [reused, fresh] = [median(rows.reused), median(rows.fresh)];
console.log(
  `median of ${rounds}: encodeFlowEvent ${reused.toFixed(2)} µs, a fresh writer ${fresh.toFixed(2)} µs ` +
    `(${(reused / fresh).toFixed(2)} of it), decodeFlowEvent ${median(rows.decode).toFixed(2)} µs`,
);
