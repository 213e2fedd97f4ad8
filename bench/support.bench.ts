/**
 * Support's look-ups (issue 24): search by email and the user's page (detail + first page of their flows)
 * through mgmt's support port, over real gRPC to auth's Users handlers and activity-log's, at p50/p95/p99;
 * then the export of every record of the tenant through the port, with the process's RSS growth.
 *
 *   node --import tsx bench/support.bench.ts                  (embedded default: in-memory stores)
 *   SUPPORT_STORE=mongo node --import tsx bench/support.bench.ts   (the Mongo-wire server of SESAME_MONGO_URL)
 *   SUPPORT_STORE=embedded node --import tsx bench/support.bench.ts   (records and people in the embedded engine)
 *   npm run bench -- support
 *
 * SUPPORT_USERS (100000) people and SUPPORT_RECORDS (1000000) activity records of one tenant, each record a
 * flow of SUPPORT_EVENTS (2) events; SUPPORT_SAMPLES (300) look-ups per figure; SUPPORT_EXPORT=0 measures the
 * look-ups only. The memory run needs a large heap: node --max-old-space-size=4096. After the export through the
 * port, the same export as a CSV download (mgmt's streamExport over HTTP), with its own RSS growth. For a
 * diagnosis of the export: SUPPORT_LOOKUPS=0 skips the look-ups, SUPPORT_DOWNLOAD=0 the download.
 */
import { randomUUID } from 'node:crypto';
import {
  MemoryActivityLogRepository,
  MemoryAdminLogRepository,
  MongoActivityLogRepository,
  activityLogsGrpc,
} from '@sesame/activity-log-service';
import type { ActivityLogRepository } from '@sesame/activity-log-service';
import {
  type PasskeyRepository,
  type UserStore,
  createPasskeyStore,
  createUserStore,
  findUsers,
  getUserDetail,
  memoryUserStore,
} from '@sesame/auth-service';
import type { FlowEventFacts } from '@sesame/flow-events';
import { createSupportPort, supportFlowsPeer } from '@sesame/mgmt-service';
import { type Connection, connectMongo } from '@sesame/mongo';
import {
  GrpcServer,
  createClient,
  createLogger,
  disableAllocationSitePretenuring,
  notImplemented,
} from '@sesame/platform';
import { activitylogs, users } from '@sesame/proto';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { rssOf } from './support';
import {
  EVENTS,
  RECORDS,
  SAMPLES,
  TENANT,
  USERS,
  deviceOf,
  emailOf,
  flowEvents,
  mb,
  membershipOf,
  percentiles,
  userId,
  userOf,
} from './support-data';
import { loadEmbedded } from './support-embedded';
import { measureDownload, measureExport } from './support-export';

// As the embedded default's and mgmt's mains do (SUPPORT_PRETENURING=1 leaves V8's default, to compare).
if (process.env.SUPPORT_PRETENURING !== '1') disableAllocationSitePretenuring();

const STORE = (['mongo', 'embedded'] as const).find((s) => s === process.env.SUPPORT_STORE) ?? 'memory';
const EXPORT = process.env.SUPPORT_EXPORT !== '0';
const logger = createLogger({ service: 'bench', level: 'silent' });

/** People, and the records unless `given` (the embedded leg's, in the engine), in memory. */
async function loadMemory(given?: ActivityLogRepository): Promise<{
  store: UserStore;
  passkeys: PasskeyRepository;
  flows: ActivityLogRepository;
}> {
  const store = memoryUserStore();
  const passkeys = createPasskeyStore(undefined);
  for (let i = 0; i < USERS; i++) {
    await store.users.create(userOf(i));
    await store.memberships.save(membershipOf(i));
    await store.devices.save(deviceOf(i));
  }
  if (given) return { store, passkeys, flows: given };
  const flows = new MemoryActivityLogRepository();
  for (let from = 0; from < RECORDS; from += 10_000) {
    const batch: FlowEventFacts[] = [];
    for (let r = from; r < Math.min(RECORDS, from + 10_000); r++) batch.push(...flowEvents(r));
    await flows.applyFlowEvents(batch);
  }
  return { store, passkeys, flows };
}

/** The same data written straight into the collections the repositories read (their indexes built first). */
async function loadMongo(conn: Connection) {
  const store = createUserStore(conn, {} as never); // reads only: the membership lock store is never used
  const passkeys = createPasskeyStore(conn);
  await conn.syncIndexes();
  const { repository: flows } = await MongoActivityLogRepository.open(conn, { retentionDays: 3650, logger });
  const write = async (collection: string, docs: object[]) => {
    if (docs.length) await conn.collection(collection).insertMany(docs, { ordered: false });
  };
  for (let from = 0; from < USERS; from += 1000) {
    const ids = Array.from({ length: Math.min(1000, USERS - from) }, (_, k) => from + k);
    await write('users', ids.map(userOf));
    await write('app_memberships', ids.map(membershipOf));
    await write('user_devices', ids.map(deviceOf));
  }
  for (let from = 0; from < RECORDS; from += 1000) {
    const docs = [];
    for (let r = from; r < Math.min(RECORDS, from + 1000); r++) {
      const events = flowEvents(r);
      const last = events[events.length - 1]!;
      docs.push({
        tenantId: TENANT,
        flowId: last.flowId,
        appId: last.appId,
        timestamp: events[0]!.timestamp,
        userId: last.userId,
        email: last.email,
        flowType: last.flowType,
        authMethodType: last.authMethodType,
        accessingDevice: last.accessingDevice,
        status: last.status,
        ...(last.errorCode ? { errorCode: last.errorCode, failureReason: last.failureReason } : {}),
        events: events.map((e) => ({
          id: e.eventId,
          timestamp: e.timestamp,
          payload: { flowId: e.flowId, details: { action: e.action, clientIp: e.clientIp } },
        })),
        versions: {},
        rev: 1,
        expireAt: new Date(events[0]!.timestamp + 3650 * 86_400_000),
      });
    }
    await write('activity_logs', docs);
    if ((from / 1000) % 100 === 99) console.log(`  ${from + 1000} records written`);
  }
  return { store, passkeys, flows };
}

const loadStarted = performance.now();
let conn: Connection | undefined;
let data: Awaited<ReturnType<typeof loadMemory>>;
let closeEmbedded: (() => void) | undefined;
if (STORE === 'embedded') {
  const embedded = await loadEmbedded(RECORDS, flowEvents, USERS);
  closeEmbedded = embedded.close;
  data = embedded;
} else if (STORE === 'mongo') {
  conn = await connectMongo(
    isolatedMongoUrl(realServers().mongoUrl, `bench-support-${randomUUID().slice(0, 8)}`),
    {
      appName: 'bench-support',
    },
  );
  await conn.dropDatabase();
  data = await loadMongo(conn);
} else {
  data = await loadMemory();
}
const loadSeconds = (performance.now() - loadStarted) / 1000;
globalThis.gc?.();
console.log(
  `store ${STORE}: ${USERS} users, ${RECORDS} records (${EVENTS} events each) loaded in ${loadSeconds.toFixed(1)} s; ` +
    `RSS ${mb(rssOf(process.pid))}, heap ${mb(process.memoryUsage().heapUsed)}`,
);

const server = new GrpcServer({ logger });
server.add<users.UsersServiceServer>(users.UsersServiceService, {
  removeUser: notImplemented,
  lookupUser: notImplemented,
  blockDevice: notImplemented,
  createInteractiveFlow: notImplemented,
  createActivationLink: notImplemented,
  findUsers: findUsers(data.store),
  getUserDetail: getUserDetail(data.store, data.passkeys),
  listUserSessions: notImplemented,
  signOutEverywhere: notImplemented,
  setUserDisabled: notImplemented,
  listUsers: notImplemented,
  removePasskey: notImplemented,
  removePhoneNumber: notImplemented,
});
server.add<activitylogs.ActivityLogsServiceServer>(
  activitylogs.ActivityLogsServiceService,
  activityLogsGrpc({ activityLogs: data.flows, adminLogs: new MemoryAdminLogRepository() }),
);
const grpcPort = await server.start(0, '127.0.0.1');
const usersClient = createClient(users.UsersServiceClient, `127.0.0.1:${grpcPort}`, { deadlineMs: 60_000 });
const logsClient = createClient(activitylogs.ActivityLogsServiceClient, `127.0.0.1:${grpcPort}`, {
  deadlineMs: 60_000,
});
const port = createSupportPort({
  users: usersClient,
  flows: supportFlowsPeer(logsClient),
  appName: async (_tenant, appId) => appId.toUpperCase(),
});

async function measure(label: string, run: (i: number) => Promise<unknown>) {
  if (process.env.SUPPORT_LOOKUPS === '0') return;
  for (let k = 0; k < 20; k++) await run((k * 7919) % USERS); // warm-up
  const ms: number[] = [];
  for (let k = 0; k < SAMPLES; k++) {
    const i = (k * 104_729) % USERS;
    const started = performance.now();
    await run(i);
    ms.push(performance.now() - started);
  }
  const { p50, p95, p99 } = percentiles(ms);
  console.log(
    `${label.padEnd(52)} p50 ${p50.toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms   p99 ${p99.toFixed(1).padStart(7)} ms`,
  );
}

await measure('search by email (findUsers)', async (i) => {
  const found = await port.findUsers(TENANT, emailOf(i).toUpperCase());
  if (found[0]?.userId !== userId(i))
    throw new Error(`search for ${emailOf(i)} found ${JSON.stringify(found)}`);
});
await measure('user detail (userDetail)', (i) => port.userDetail(TENANT, userId(i)));
await measure("the person's flows, first page of 50 (listFlows)", (i) =>
  port.listFlows(TENANT, { userId: userId(i) }, 50),
);
await measure("user's page: detail + first page of flows, together", (i) =>
  Promise.all([port.userDetail(TENANT, userId(i)), port.listFlows(TENANT, { userId: userId(i) }, 50)]),
);

if (EXPORT) {
  await measureExport(port, TENANT, RECORDS);
  if (process.env.SUPPORT_DOWNLOAD !== '0') await measureDownload(port, TENANT, RECORDS);
}

usersClient.close();
logsClient.close();
await server.stop(1000);
closeEmbedded?.();
if (conn) {
  await conn.dropDatabase();
  await conn.close();
}
