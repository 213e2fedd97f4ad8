/**
 * The embedded leg of the support benches (SUPPORT_STORE=embedded, and people.bench.ts): the activity records
 * and the people (users, memberships, devices; passkeys' table) in the embedded default's engine (SQLite in a
 * data directory, read on demand), written through the repositories as the services write them. SUPPORT_DATA_DIR
 * keeps the store (and reuses one already loaded to this size); without it a temp directory is used and removed
 * at the end.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteActivityLogRepository } from '@sesame/activity-log-service';
import {
  type PasskeyRepository,
  type UserStore,
  createPasskeyStore,
  createUserStore,
} from '@sesame/auth-service';
import { EmbeddedStore } from '@sesame/embedded-store';
import type { FlowEventFacts } from '@sesame/flow-events';
import { deviceOf, membershipOf, userOf } from './support-data';

export interface EmbeddedData {
  engine: EmbeddedStore;
  dir: string;
  flows: SqliteActivityLogRepository;
  store: UserStore;
  passkeys: PasskeyRepository;
  close: () => void;
}

const count = (engine: EmbeddedStore, table: string) =>
  engine.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

async function loadRecords(
  engine: EmbeddedStore,
  records: number,
  flowEvents: (r: number) => FlowEventFacts[],
) {
  const flows = new SqliteActivityLogRepository(engine);
  if (count(engine, 'activity_log_records') === records) return;
  engine.db.exec('DELETE FROM activity_log_records');
  for (let from = 0; from < records; from += 10_000) {
    const batch: FlowEventFacts[] = [];
    for (let r = from; r < Math.min(records, from + 10_000); r++) batch.push(...flowEvents(r));
    await flows.applyFlowEvents(batch);
    if ((from / 10_000) % 10 === 9) console.log(`  ${from + 10_000} records written`);
  }
}

/** People through the user store's own writes, 1,000 at a time (one engine turn, so one commit, each). */
async function loadPeople(engine: EmbeddedStore, people: number) {
  const store = createUserStore(undefined, {} as never, engine); // the KV is the Mongo adapter's lock only
  createPasskeyStore(undefined, engine);
  if (count(engine, 'auth_users') === people) return;
  engine.db.exec('DELETE FROM auth_users; DELETE FROM auth_memberships; DELETE FROM auth_user_devices;');
  for (let from = 0; from < people; from += 1000) {
    const ids = Array.from({ length: Math.min(1000, people - from) }, (_, k) => from + k);
    await Promise.all(ids.map((i) => store.users.create(userOf(i))));
    await Promise.all(ids.map((i) => store.memberships.save(membershipOf(i))));
    await Promise.all(ids.map((i) => store.devices.save(deviceOf(i))));
    if ((from / 1000) % 20 === 19) console.log(`  ${from + 1000} people written`);
  }
}

/** `people` 0: records only (the people are the caller's, in memory). */
export async function loadEmbedded(
  records: number,
  flowEvents: (r: number) => FlowEventFacts[],
  people = 0,
): Promise<EmbeddedData> {
  const kept = process.env.SUPPORT_DATA_DIR;
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'sesame-bench-support-'));
  let engine = EmbeddedStore.open({ dir });
  await loadRecords(engine, records, flowEvents);
  if (people) await loadPeople(engine, people);
  // Closed and opened again, as a restart does: what follows reads from the file, not from what the load cached.
  engine.close();
  const reopenStarted = performance.now();
  engine = EmbeddedStore.open({ dir });
  const flows = new SqliteActivityLogRepository(engine);
  await flows.listFlows({ tenantId: 'bench-tenant', filter: {}, limit: 1 });
  const reopenMs = performance.now() - reopenStarted;
  const size = statSync(join(dir, 'sesame.db')).size;
  console.log(
    `embedded store ${dir}: ${(size / 1024 / 1024).toFixed(0)} MB on disk; reopened and first page read in ${reopenMs.toFixed(0)} ms`,
  );
  const opened = engine;
  return {
    engine: opened,
    dir,
    flows,
    store: createUserStore(undefined, {} as never, opened),
    passkeys: createPasskeyStore(undefined, opened),
    close: () => {
      opened.close();
      if (!kept) rmSync(dir, { recursive: true, force: true });
    },
  };
}
