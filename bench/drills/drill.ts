/**
 * One failure drill: a cluster (bench/cluster, two replicas of each service behind HAProxy) on the infra's
 * servers, a tenant with an app and API credentials, the load of load.ts, the fault injected while it runs,
 * then the count of the drill tenant's flow events on Kafka and in activity-log's database (the consumer is
 * given up to 60 s to catch up). Prints the JSON and exits 1 when a target is missed.
 */
import { randomBytes } from 'node:crypto';
import { decodeFlowEvent } from '@sesame/flow-events';
import { connectMongo } from '@sesame/mongo';
import { topics } from '@sesame/proto';
import { sleep } from '@sesame/testing';
import { Kafka, logLevel } from 'kafkajs';
import { type Cluster, startCluster } from '../cluster/cluster';
import { clusterStores } from '../cluster/stores';
import { type Failure, type LoadResult, startLoad } from './load';

export interface Fault {
  /** Named in the output (e.g. "kill -9 token-0"). */
  label: string;
  at: number;
}

export interface DrillReport {
  drill: string;
  requests: number;
  failures: number;
  failures_by_status: Record<string, number>;
  longest_gap_ms: number;
  sign_ins: number;
  client_credentials: number;
  events_produced: number;
  events_in_activity_log: number;
  /** Access tokens answered during the run, introspected after it (every sign-in's, client_credentials' sampled). */
  tokens_checked: number;
  /** Of those, the ones /introspect no longer knows (answered, then forgotten). */
  tokens_forgotten: number;
  /** error_window_ms: first to last failure after the fault; errors_until_ms: the fault to its last failure. */
  faults: Array<{ fault: string; error_window_ms: number; errors_until_ms: number; failures: number }>;
  first_failures: string[];
  /** Every failure that was not a 503 with Retry-After (a target miss each). */
  other_failures: string[];
  service_503_causes?: Record<string, number>;
}

const log = (msg: string) => console.error(`[drill] ${msg}`);

async function admin(cluster: Cluster, path: string, body: unknown) {
  const res = await fetch(`${cluster.urls.admin}/api/v1/admin${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${cluster.adminKey}` },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
}

/**
 * Introspects (with the tenant's API credentials) every sign-in's access token and the client_credentials
 * tokens answered from 5 s before the first fault on, plus every 10th before: each must still be active.
 */
async function forgottenTokens(
  cluster: Cluster,
  issued: LoadResult['issued'],
  firstFaultAt: number,
  creds: { id: string; secret: string },
): Promise<{ checked: number; forgotten: string[] }> {
  const sample = issued.filter((t, i) => t.kind === 'sign-in' || t.at >= firstFaultAt - 5000 || i % 10 === 0);
  const forgotten: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < sample.length) {
      const t = sample[next++]!;
      for (let attempt = 1; ; attempt++) {
        const res = await fetch(`${cluster.urls.auth}/introspect`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            token: t.accessToken,
            client_id: creds.id,
            client_secret: creds.secret,
          }),
        });
        const body = (await res.json().catch(() => ({}))) as { active?: boolean };
        if (res.status === 200) {
          if (body.active !== true) forgotten.push(`${t.kind} token answered at +${t.at - firstFaultAt} ms`);
          break;
        }
        if (attempt === 5) throw new Error(`/introspect answered ${res.status} five times`);
        await sleep(1000);
      }
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  return { checked: sample.length, forgotten };
}

type Offsets = Map<number, bigint>;
async function topicEnds(kafka: Kafka): Promise<Offsets> {
  const a = kafka.admin();
  await a.connect();
  try {
    const ends = await a.fetchTopicOffsets(topics.flowEvents);
    return new Map(ends.map((e) => [e.partition, BigInt(e.high)]));
  } finally {
    await a.disconnect();
  }
}

/** Distinct flow events of `tenantId` published between the two offset snapshots. */
async function producedEvents(kafka: Kafka, from: Offsets, to: Offsets, tenantId: string): Promise<number> {
  const ids = new Set<string>();
  const pending = new Set([...to].filter(([p, end]) => end > (from.get(p) ?? 0n)).map(([p]) => p));
  if (pending.size === 0) return 0;
  const groupId = `drill-count-${randomBytes(4).toString('hex')}`;
  const consumer = kafka.consumer({ groupId });
  await consumer.connect();
  await consumer.subscribe({ topic: topics.flowEvents });
  let done!: () => void;
  const finished = new Promise<void>((r) => {
    done = r;
  });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      const offset = BigInt(message.offset);
      const end = to.get(partition) ?? 0n;
      if (offset >= (from.get(partition) ?? 0n) && offset < end && message.value) {
        try {
          const facts = decodeFlowEvent(message.value);
          if (facts.tenantId === tenantId) ids.add(facts.eventId);
        } catch {
          /* another producer's message */
        }
      }
      if (offset >= end - 1n && pending.delete(partition) && pending.size === 0) done();
    },
  });
  for (const [p, offset] of from)
    consumer.seek({ topic: topics.flowEvents, partition: p, offset: String(offset) });
  await Promise.race([finished, sleep(90_000)]);
  await consumer.disconnect();
  const a = kafka.admin();
  await a.connect();
  await a.deleteGroups([groupId]).catch(() => undefined);
  await a.disconnect();
  return ids.size;
}

export async function runDrill(
  name: string,
  inject: (cluster: Cluster, mark: (label: string) => void) => Promise<void>,
  targets: (report: DrillReport) => string[],
  opts: { only503?: boolean } = {},
): Promise<void> {
  const runId = randomBytes(3).toString('hex');
  const stores = await clusterStores(`drill-${name}-${runId}`, { fresh: true });
  const kafka = new Kafka({
    clientId: 'drill',
    brokers: stores.env.SESAME_KAFKA_BROKERS!.split(','),
    logLevel: logLevel.NOTHING,
  });
  const cluster = await startCluster({
    env: {
      ...stores.env,
      SESAME_MAILS_PER_IP: '100000',
      SESAME_MAILS_PER_ADDRESS: '100000',
      SESAME_MAILS_PER_ADDRESS_TENANT: '100000',
      SESAME_MAILS_PER_ADDRESS_GLOBAL: '100000',
    },
    log,
  });
  // Interrupted: the replicas and the balancer go too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void cluster.stop().finally(() => process.exit(130)));
  let code = 1;
  try {
    const { tenantId } = await admin(cluster, '/tenants', { name: `drill ${name}` });
    const redirectUri = 'http://localhost:3000/callback';
    const app = await admin(cluster, `/tenants/${tenantId}/applications`, {
      name: 'drill app',
      redirectUris: [redirectUri],
    });
    const creds = await admin(cluster, `/tenants/${tenantId}/credentials`, {});
    const from = await topicEnds(kafka);
    const load = startLoad({
      authUrl: cluster.urls.auth,
      clientId: app.clientId!,
      clientSecret: app.clientSecret!,
      redirectUri,
      credentialsId: creds.credentialsId!,
      apiSecret: creds.apiSecret!,
    });
    const faults: Fault[] = [];
    await sleep(3000);
    log('load running; injecting the fault');
    await inject(cluster, (label) => {
      log(label);
      faults.push({ label, at: Date.now() });
    });
    await sleep(3000);
    const result = await load.stop();
    log(`load stopped: ${result.requests} requests, ${result.failures.length} failures; counting events`);
    const tokens = await forgottenTokens(cluster, result.issued, faults[0]?.at ?? Date.now(), {
      id: creds.credentialsId!,
      secret: creds.apiSecret!,
    });
    const to = await topicEnds(kafka);
    const produced = await producedEvents(kafka, from, to, tenantId!);
    const conn = await connectMongo(stores.mongoUrl, { appName: 'drill' });
    let recorded = 0;
    const deadline = Date.now() + 60_000;
    do {
      // Summed here: FerretDB implements no $size.
      const docs = await conn
        .db!.collection('activity_logs')
        .find({ tenantId }, { projection: { events: 1 } })
        .toArray();
      recorded = docs.reduce((n, d) => n + ((d.events as unknown[] | undefined)?.length ?? 0), 0);
      if (recorded >= produced) break;
      await sleep(1000);
    } while (Date.now() < deadline);
    await conn.close();
    const windowOf = (i: number): Failure[] => {
      const start = faults[i]!.at;
      const end = faults[i + 1]?.at ?? Number.POSITIVE_INFINITY;
      return result.failures.filter((f) => f.at >= start && f.at < end);
    };
    const byStatus: Record<string, number> = {};
    for (const f of result.failures) byStatus[f.status] = (byStatus[f.status] ?? 0) + 1;
    const report: DrillReport = {
      drill: name,
      requests: result.requests,
      failures: result.failures.length,
      failures_by_status: byStatus,
      longest_gap_ms: result.longestGapMs,
      sign_ins: result.signIns,
      client_credentials: result.clientCredentials,
      events_produced: produced,
      events_in_activity_log: recorded,
      tokens_checked: tokens.checked,
      tokens_forgotten: tokens.forgotten.length,
      faults: faults.map((f, i) => {
        const w = windowOf(i);
        return {
          fault: f.label,
          error_window_ms: w.length ? w[w.length - 1]!.at - w[0]!.at : 0,
          errors_until_ms: w.length ? w[w.length - 1]!.at - f.at : 0,
          failures: w.length,
        };
      }),
      first_failures: result.failures
        .slice(0, 12)
        .map((f) => `+${f.at - (faults[0]?.at ?? f.at)} ms ${f.status} ${f.what.slice(0, 160)}`),
      other_failures: result.failures
        .filter((f) => f.status !== '503')
        .map((f) => `+${f.at - (faults[0]?.at ?? f.at)} ms ${f.status} ${f.what.slice(0, 160)}`),
    };
    // Why the services answered 503 themselves: their warnings ("a store or peer is unavailable"), by cause.
    const causes: Record<string, number> = {};
    for (const r of cluster.replicas)
      for (const line of r.output.join('').split('\n')) {
        if (!line.includes('is unavailable')) continue;
        let entry: { err?: { message?: string } } = {};
        try {
          entry = JSON.parse(line.slice(line.indexOf('{')));
        } catch {
          /* a line cut between two chunks */
        }
        const key = `${r.name}: ${(entry.err?.message ?? '?').slice(0, 120)}`;
        causes[key] = (causes[key] ?? 0) + 1;
      }
    report.service_503_causes = causes;
    console.log(JSON.stringify(report, null, 2));
    const missed = targets(report);
    if (report.events_in_activity_log !== report.events_produced)
      missed.push(
        `events: ${report.events_produced} produced, ${report.events_in_activity_log} in activity-log`,
      );
    if (report.sign_ins === 0) missed.push('no sign-in completed');
    if (tokens.forgotten.length)
      missed.push(
        `${tokens.forgotten.length} answered tokens forgotten: ${tokens.forgotten.slice(0, 5).join('; ')}`,
      );
    const wrong = Object.keys(report.failures_by_status).filter((s) => s !== '503');
    if (opts.only503 !== false && wrong.length)
      missed.push(
        ...wrong.map(
          (s) => `${report.failures_by_status[s]} failures answered ${s} (only 503 with Retry-After allowed)`,
        ),
      );
    for (const m of missed) log(`✗ target missed: ${m}`);
    if (!missed.length) log('✓ every target met');
    code = missed.length ? 1 : 0;
  } finally {
    await cluster.stop();
    await stores.drop().catch(() => undefined);
  }
  process.exit(code);
}
