/**
 * The embedded leg of bench/support.bench.ts (SUPPORT_STORE=embedded): the activity records in the embedded
 * default's engine (SQLite in a data directory, read on demand), loaded through the repository's own
 * applyFlowEvents as the consumer writes them. SUPPORT_DATA_DIR keeps the store (and reuses one already
 * loaded to this size); without it a temp directory is used and removed at the end.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteActivityLogRepository } from '@sesame/activity-log-service';
import { EmbeddedStore } from '@sesame/embedded-store';
import type { FlowEventFacts } from '@sesame/flow-events';

export interface EmbeddedFlows {
  flows: SqliteActivityLogRepository;
  close: () => void;
}

export async function loadEmbeddedFlows(
  records: number,
  flowEvents: (r: number) => FlowEventFacts[],
): Promise<EmbeddedFlows> {
  const kept = process.env.SUPPORT_DATA_DIR;
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'sesame-bench-support-'));
  let engine = EmbeddedStore.open({ dir });
  let flows = new SqliteActivityLogRepository(engine);
  const stored = () => engine.db.prepare('SELECT count(*) FROM activity_log_records').pluck().get() as number;
  if (stored() !== records) {
    engine.db.exec('DELETE FROM activity_log_records');
    for (let from = 0; from < records; from += 10_000) {
      const batch: FlowEventFacts[] = [];
      for (let r = from; r < Math.min(records, from + 10_000); r++) batch.push(...flowEvents(r));
      await flows.applyFlowEvents(batch);
      if ((from / 10_000) % 10 === 9) console.log(`  ${from + 10_000} records written`);
    }
  }
  // Closed and opened again, as a restart does: what follows reads from the file, not from what the load cached.
  engine.close();
  const reopenStarted = performance.now();
  engine = EmbeddedStore.open({ dir });
  flows = new SqliteActivityLogRepository(engine);
  await flows.listFlows({ tenantId: 'bench-tenant', filter: {}, limit: 1 });
  const reopenMs = performance.now() - reopenStarted;
  const size = statSync(join(dir, 'sesame.db')).size;
  console.log(
    `embedded store ${dir}: ${(size / 1024 / 1024).toFixed(0)} MB on disk; reopened and first page read in ${reopenMs.toFixed(0)} ms`,
  );
  return {
    flows,
    close: () => {
      engine.close();
      if (!kept) rmSync(dir, { recursive: true, force: true });
    },
  };
}
