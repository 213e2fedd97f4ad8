// Over 300 lines on purpose: one benchmark (its setup, load phases and printed report) read top to bottom; its
// records are built in activity.records.ts.
/**
 * Activity logs against real Kafka and the Mongo-wire server of scripts/infra (FerretDB 1.24 on SQLite there).
 *
 * Ingest: pre-produce BENCH_EVENTS flow events (6 per flow) on a topic of its own, then let the flow-events
 * consumer read the whole topic twice in fresh groups: once with a repository that writes nothing, once with
 * the Mongo repository. Ratio = written events/s ÷ read-only events/s (goal >= 0.3).
 * Query: load records straight into the collection (insertMany, 10k per call), p95 of BENCH_QUERIES pages of
 * 100 (tenant-wide and userId-filtered) at 10,000 records and at BENCH_RECORDS records. Ratio = p95(large) ÷
 * p95(10k) (goal <= 2). Loading stops at BENCH_LOAD_BUDGET_S and reports the N it reached.
 * Server ceiling: insertMany, updateOne by _id and the repository's guarded update timed on a scratch collection,
 * and the ingest rate that this server's write speed allows for the run's mix of inserts and updates, so a
 * ratio short of the goal can be told apart from a server that cannot go faster.
 *
 *   eval "$(node scripts/infra/cli.mjs env)"; node --import tsx bench/activity.bench.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ActivityLogRepository,
  MongoActivityLogRepository,
  createFlowEventsConsumer,
} from '@sesame/activity-log-service';
import { KafkaEventBus } from '@sesame/events';
import { encodeFlowEvent, flowActions, toFlowEventFacts } from '@sesame/flow-events';
import { connectMongo } from '@sesame/mongo';
import { createLogger } from '@sesame/platform';
import { isolatedMongoUrl, realServers, sleep } from '@sesame/testing';
import { T0, USERS_PER_RECORD, recordDoc, serverCeiling } from './activity.records';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 60_000);
const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const LOAD_BUDGET_S = Number(process.env.BENCH_LOAD_BUDGET_S ?? 600);
/** Per size and query shape: stop sampling after this long (FerretDB sorts in memory: pages get slow). */
const QUERY_BUDGET_S = Number(process.env.BENCH_QUERY_BUDGET_S ?? 120);
const BATCH = Number(process.env.BENCH_BATCH ?? 1000);
const EVENTS_PER_FLOW = 6;

const logger = createLogger({ service: 'bench', level: 'warn' });
const servers = realServers();
const outboxDir = mkdtempSync(join(tmpdir(), 'bench-activity-'));
const bus = await KafkaEventBus.create({
  brokers: servers.kafkaBrokers,
  clientId: `bench-activity-${randomUUID().slice(0, 8)}`,
  outboxDir,
  logger,
});
const conn = await connectMongo(isolatedMongoUrl(servers.mongoUrl, 'bench_activity'), {
  appName: 'bench-activity',
});
await conn.dropDatabase();
const { repository } = await MongoActivityLogRepository.open(conn, { retentionDays: 90, logger });
const serverInfo = await conn.db!.admin().command({ buildInfo: 1 });
console.log(
  `Mongo-wire server: ${serverInfo.ferretdbVersion ? `FerretDB ${serverInfo.ferretdbVersion}` : 'MongoDB'} ` +
    `(reports MongoDB ${serverInfo.version}); Kafka ${servers.kafkaBrokers.join(',')}`,
);

// ---------------------------------------------------------------- ingest
/**
 * Realistic traffic: a flow starts every 10 ms and takes 6 steps 500 ms apart, so ~300 flows run at once and
 * their events interleave on the topic in time order, as concurrent logins would.
 */
async function produce(topic: string): Promise<void> {
  const flows = Math.ceil(EVENTS / EVENTS_PER_FLOW);
  const facts = [];
  for (let f = 0; f < flows; f++) {
    for (let step = 0; step < EVENTS_PER_FLOW && facts.length < EVENTS; step++) {
      facts.push(
        toFlowEventFacts(
          {
            flowId: `flow-${f}`,
            tenantId: 'bench-tenant',
            appId: 'bench-app',
            timestamp: T0 + f * 10 + step * 500,
            action: flowActions[step % flowActions.length]!,
            clientIp: '203.0.113.7',
            ...(step === 1 ? { accessingDevice: 'macOS 14 Chrome 120', accessingIp: '203.0.113.7' } : {}),
            ...(step === EVENTS_PER_FLOW - 1
              ? { userId: `user-${f % 500}`, status: 'success' as const }
              : {}),
          },
          () => 0,
          randomUUID,
        ),
      );
    }
  }
  facts.sort((a, b) => a.timestamp - b.timestamp);
  const started = Date.now();
  for (let i = 0; i < facts.length; i += 2000) {
    const chunk = facts.slice(i, i + 2000).map((e) => ({ key: e.flowId, value: encodeFlowEvent(e) }));
    await bus.publisher.publish(topic, chunk);
  }
  await bus.publisher.flush(120_000);
  console.log(
    `produced ${facts.length} events (${EVENTS_PER_FLOW} per flow, ~300 flows in flight) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * Runs the flow-events consumer over the whole topic; events/s from its first batch until every distinct event
 * was handled (a batch redelivered after a rebalance counts once).
 */
let flowWrites = 0;
async function consumeAll(topic: string, repo: ActivityLogRepository, label: string): Promise<number> {
  const handled = new Set<string>();
  flowWrites = 0;
  let first = 0;
  let last = 0;
  const counting: ActivityLogRepository = {
    query: (q) => repo.query(q),
    listFlows: (q) => repo.listFlows(q),
    getFlow: (tenantId, flowId) => repo.getFlow(tenantId, flowId),
    exportFlows: (q) => repo.exportFlows(q),
    countFlows: (tenantId, filter) => repo.countFlows(tenantId, filter),
    eraseFlows: (tenantId, target) => repo.eraseFlows(tenantId, target),
    attemptedEmails: (tenantId, prefix, limit) => repo.attemptedEmails(tenantId, prefix, limit),
    async applyFlowEvents(events) {
      first ||= Date.now();
      await repo.applyFlowEvents(events);
      flowWrites += new Set(events.map((e) => `${e.tenantId}/${e.flowId}`)).size; // one document write per flow
      for (const e of events) handled.add(e.eventId);
      last = Date.now();
    },
  };
  const consumer = createFlowEventsConsumer({
    bus,
    repository: counting,
    logger,
    topic,
    deadLetterTopic: `${topic}.dlq`,
    groupId: `bench-${label}-${randomUUID()}`,
    maxBatchSize: BATCH,
  });
  await consumer.start();
  const deadline = Date.now() + 30 * 60_000;
  let reported = Date.now();
  while (handled.size < EVENTS && Date.now() < deadline) {
    await sleep(50);
    if (Date.now() - reported > 10_000) {
      reported = Date.now();
      console.log(`  ${label}: ${handled.size}/${EVENTS} events so far`);
    }
  }
  await consumer.stop();
  const rate = (handled.size / Math.max(1, last - first)) * 1000;
  console.log(
    `${label}: ${handled.size} events in ${((last - first) / 1000).toFixed(2)} s = ${rate.toFixed(0)} events/s`,
  );
  return rate;
}

const topic = `bench.flow-events.${randomUUID()}`;
await bus.ensureTopics([topic, `${topic}.dlq`]);
await produce(topic);
const nothing: ActivityLogRepository = {
  applyFlowEvents: async () => {},
  query: async () => [],
  listFlows: async () => [],
  getFlow: async () => undefined,
  exportFlows: async function* () {},
  countFlows: async () => 0,
  eraseFlows: async () => 0,
  attemptedEmails: async () => [],
};
const readRate = await consumeAll(topic, nothing, 'read-only (decode, validate, no write)');
const writeRate = await consumeAll(topic, repository, `read + fold + write to Mongo (batch ${BATCH})`);
const flowsStored = await repository.model.collection.countDocuments({});
console.log(`records stored: ${flowsStored} (expected ${Math.ceil(EVENTS / EVENTS_PER_FLOW)})`);
const ingestRatio = writeRate / readRate;
const eventsPerWrite = EVENTS / Math.max(1, flowWrites);
console.log(
  `document writes: ${flowWrites} for ${EVENTS} events = ${eventsPerWrite.toFixed(2)} events per write`,
);

const ceiling = await serverCeiling(conn.db!);
/**
 * The best this server allows for this run's write mix (a new flow is an insert, a flow whose events span
 * batches is then updated): seconds = inserts / insert rate + updates / guarded-update rate.
 */
const inserts = flowsStored;
const updates = Math.max(0, flowWrites - flowsStored);
const boundRate = EVENTS / (inserts / ceiling.inserts + updates / ceiling.guarded);
const insertOnlyRatio = (ceiling.inserts * eventsPerWrite) / readRate;

// ---------------------------------------------------------------- query
await repository.model.collection.deleteMany({});

let loaded = 0;
let loadSeconds = 0;
/** Loads records [loaded, target); userIds are assigned for a final size of `finalN`. */
async function loadTo(target: number, finalN: number): Promise<boolean> {
  const started = Date.now();
  while (loaded < target) {
    if (loadSeconds + (Date.now() - started) / 1000 > LOAD_BUDGET_S) {
      loadSeconds += (Date.now() - started) / 1000;
      return false;
    }
    const end = Math.min(target, loaded + 10_000);
    const docs = [];
    for (let i = loaded; i < end; i++) docs.push(recordDoc(i, finalN));
    await repository.model.collection.insertMany(docs, { ordered: false });
    loaded = end;
  }
  loadSeconds += (Date.now() - started) / 1000;
  return true;
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!;

async function measure(n: number): Promise<{ tenant: number; user: number }> {
  const users = Math.max(1, Math.floor(n / USERS_PER_RECORD));
  const base = {
    tenantId: 'bench-tenant',
    appId: 'bench-app',
    timeStart: T0,
    timeEnd: T0 + n * 1000,
    skip: 0,
    pageSize: 100,
  };
  const time = async (q: Parameters<ActivityLogRepository['query']>[0]) => {
    const t = process.hrtime.bigint();
    const page = await repository.query(q);
    if (page.length === 0) throw new Error('empty page: the benchmark data is not what it should be');
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  for (let i = 0; i < 3; i++) await time(base); // warm-up
  const sample = async (q: (i: number) => Parameters<ActivityLogRepository['query']>[0]) => {
    const out: number[] = [];
    const until = Date.now() + QUERY_BUDGET_S * 1000;
    for (let i = 0; i < QUERIES && (i < 5 || Date.now() < until); i++) out.push(await time(q(i)));
    return out;
  };
  const tenant = await sample(() => base);
  const user = await sample((i) => ({ ...base, userId: `user-${(i * 7919) % users}` }));
  const result = { tenant: p95(tenant), user: p95(user) };
  console.log(
    `N=${n}: tenant-wide page p95 ${result.tenant.toFixed(2)} ms (${tenant.length} queries), ` +
      `userId page p95 ${result.user.toFixed(2)} ms (${user.length} queries); pageSize 100`,
  );
  return result;
}

async function explain(userId?: string) {
  const filter: Record<string, unknown> = {
    tenantId: 'bench-tenant',
    appId: 'bench-app',
    timestamp: { $gte: T0, $lt: T0 + loaded * 1000 },
    ...(userId ? { userId } : {}),
  };
  const plan = await repository.model.collection
    .find(filter)
    .sort({ timestamp: -1, flowId: -1 })
    .limit(100)
    .explain();
  const p = plan as Record<string, unknown>;
  const flags = ['filterPushdown', 'sortPushdown', 'limitPushdown', 'unsafeFilterPushdown']
    .filter((k) => k in p)
    .map((k) => `${k}=${p[k]}`);
  const winning = JSON.stringify(
    (p.queryPlanner as Record<string, unknown> | undefined)?.winningPlan ?? p.queryPlanner ?? {},
  );
  console.log(
    `explain (${userId ? 'userId' : 'tenant-wide'}): ${flags.join(' ') || '(no pushdown flags)'} plan=${winning.slice(0, 400)}`,
  );
}

const small = 10_000;
await loadTo(small, small);
const atSmall = await measure(small);
await explain();
await explain('user-1');
await repository.model.collection.deleteMany({});
loaded = 0;
loadSeconds = 0;
const complete = await loadTo(RECORDS, RECORDS);
console.log(
  `loaded ${loaded} records in ${loadSeconds.toFixed(0)} s (${(loaded / loadSeconds).toFixed(0)} records/s)` +
    (complete ? '' : ` — stopped at the ${LOAD_BUDGET_S} s budget, short of ${RECORDS}`),
);
const atLarge = await measure(loaded);
await explain();
await explain('user-1');

console.log('\n=== activity-log benchmark ===');
console.log(
  `ingest: write ${writeRate.toFixed(0)} events/s ÷ read ${readRate.toFixed(0)} events/s = ${ingestRatio.toFixed(3)} (goal >= 0.3)`,
);
console.log(
  `ingest bound by this server for this write mix (${inserts} inserts, ${updates} updates): ` +
    `${boundRate.toFixed(0)} events/s ÷ read = ${(boundRate / readRate).toFixed(3)}; ` +
    `if every write were an insert: ${insertOnlyRatio.toFixed(3)}`,
);
console.log(
  `query tenant-wide: p95 ${atLarge.tenant.toFixed(2)} ms @${loaded} ÷ ${atSmall.tenant.toFixed(2)} ms @${small} = ` +
    `${(atLarge.tenant / atSmall.tenant).toFixed(2)} (goal <= 2)`,
);
console.log(
  `query userId:      p95 ${atLarge.user.toFixed(2)} ms @${loaded} ÷ ${atSmall.user.toFixed(2)} ms @${small} = ` +
    `${(atLarge.user / atSmall.user).toFixed(2)} (goal <= 2)`,
);

await conn.dropDatabase();
await conn.close();
await bus.close();
rmSync(outboxDir, { recursive: true, force: true });
