/**
 * Activity records on the embedded default's durable engine (activity-log's SQLite repository, in process): CPU
 * and bytes on disk per flow for the two writes a sign-in makes of its record. First each flow's start alone
 * (auth_start_oidc and desktop_login_page: a new record, all that a flow abandoned on its first page ever
 * writes, so what a flood of sign-in starts costs the store), then the rest of each flow (consent, completion:
 * the person known, the record updated). Flows are written BENCH_BATCH at a time, as the consumer folds a
 * batch; the engine is checkpointed before and after each phase, so the bytes are the database file's growth.
 *
 *   npm run bench -- activity-engine     (BENCH_FLOWS=20000 BENCH_BATCH=20 BENCH_ROUNDS=3)
 *
 * Each round opens a new engine in a temp directory. Compare two commits by running it in each checkout.
 * BENCH_PREFILL=N first writes N whole flows (not measured), so the phases run against a store at size.
 * BENCH_FLOW_IDS=v4 gives the flows random UUIDs, as auth minted them before issue 42's version-7 ids (the
 * default, newFlowId at each flow's start time), so the two can be compared in one checkout.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedStore } from '@sesame/embedded-store';
import { newFlowId } from '@sesame/flow-events';
import { SqliteActivityLogRepository } from '../services/activity-log/src/repositories/activity-logs.sqlite';
import { authenticationFlow } from '../services/activity-log/src/testing/fixtures';
import { median } from './support';

const flows = Number(process.env.BENCH_FLOWS ?? 20_000);
const batch = Number(process.env.BENCH_BATCH ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const prefill = Number(process.env.BENCH_PREFILL ?? 0);
const idsOf = process.env.BENCH_FLOW_IDS ?? 'v7';
if (idsOf !== 'v4' && idsOf !== 'v7') throw new Error('BENCH_FLOW_IDS is v4 or v7');
const flowIdAt = (at: number) => (idsOf === 'v4' ? randomUUID() : newFlowId(at));
const flowsFrom = (start: number, count: number) =>
  Array.from({ length: count }, (_, i) =>
    authenticationFlow(flowIdAt(start + i), start + i, {
      tenantId: 't',
      appId: 'app-1',
      userId: `user-${i}`,
    }),
  );

type Flow = ReturnType<typeof authenticationFlow>;
const phases = {
  'a start alone (new record)': (f: Flow) => f.slice(0, 2),
  'the rest of the flow (record updated)': (f: Flow) => f.slice(2),
} as const;
const results = new Map<string, { cpuUs: number[]; bytes: number[] }>();

for (let round = 1; round <= rounds; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'sesame-bench-activity-'));
  const store = EmbeddedStore.open({ dir });
  const repo = new SqliteActivityLogRepository(store);
  const t0 = Date.now();
  for (let i = 0; i < prefill; i += 1000)
    await repo.applyFlowEvents(flowsFrom(t0 - prefill + i, Math.min(1000, prefill - i)).flat());
  const all = flowsFrom(t0, flows);
  const size = () => {
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    return statSync(join(dir, 'sesame.db')).size;
  };
  for (const [name, pick] of Object.entries(phases)) {
    const before = size();
    const cpu = process.cpuUsage();
    for (let i = 0; i < flows; i += batch) await repo.applyFlowEvents(all.slice(i, i + batch).flatMap(pick));
    const used = process.cpuUsage(cpu);
    const grown = size() - before;
    const entry = results.get(name) ?? { cpuUs: [], bytes: [] };
    entry.cpuUs.push((used.user + used.system) / flows);
    entry.bytes.push(grown / flows);
    results.set(name, entry);
    console.log(
      `round ${round}  ${name.padEnd(40)} ${((used.user + used.system) / flows).toFixed(1).padStart(6)} µs CPU per flow  ${(grown / flows).toFixed(0).padStart(5)} bytes per flow`,
    );
  }
  store.close();
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `\nmedian of ${rounds} rounds, ${flows} flows each, ${batch} a batch, ${idsOf} flow ids, after ${prefill} flows:`,
);
for (const [name, { cpuUs, bytes }] of results) {
  console.log(
    `  ${name.padEnd(40)} ${median(cpuUs).toFixed(1).padStart(6)} µs CPU per flow  ${median(bytes).toFixed(0).padStart(5)} bytes on disk per flow`,
  );
}
