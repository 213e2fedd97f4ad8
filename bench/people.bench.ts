/**
 * Support's people (issue 38) on the embedded default: the people list's first page and a later page, a search
 * by the start of an address, the person's page as the console loads it, and Sign out everywhere for a person
 * with PEOPLE_SESSIONS (20) sessions, through mgmt's support port and use case over real gRPC to auth's Users
 * handlers, activity-log's, jwks' SignLogoutToken and token's RevokeUserGrants, at p50/p95/p99 beside the
 * issue's targets.
 *
 *   SUPPORT_DATA_DIR=/tmp/bench38-1m node --max-old-space-size=4096 --expose-gc --import tsx bench/people.bench.ts
 *   npm run bench -- people
 *
 * People, memberships, devices, passkeys, activity records, the KV (sessions, token's markers) and the event bus
 * all on one embedded engine (support-embedded.ts; SUPPORT_USERS, SUPPORT_RECORDS, SUPPORT_DATA_DIR as for
 * support.bench.ts). SUPPORT_SAMPLES (300) look-ups per figure, PEOPLE_SIGNOUTS (100) sign-outs.
 */
import { generateKeyPairSync } from 'node:crypto';
import { MemoryAdminLogRepository, activityLogsGrpc } from '@sesame/activity-log-service';
import { findUsers, getUserDetail, listUsers, removePasskey, removePhoneNumber } from '@sesame/auth-service';
import { createEmbeddedEventBus } from '@sesame/events';
import { createSupportPort, supportFlowsPeer } from '@sesame/mgmt-service';
import {
  GrpcServer,
  createClient,
  createLogger,
  disableAllocationSitePretenuring,
  notImplemented,
  systemClock,
} from '@sesame/platform';
import { activitylogs, type directory, grants, keys, users } from '@sesame/proto';
import { SqliteKeyValueStore } from '../libs/kv/src/sqlite';
import { userSessionsGrpc } from '../services/auth/src/grpc/user-sessions';
import { signLogoutTokenRpc } from '../services/jwks/src/grpc/logout-rpcs';
import { type Emit, createAdminEventPublisher } from '../services/mgmt/src/events/admin-events';
import { signOutEverywhere } from '../services/mgmt/src/use-cases/people/account-access';
import { RefreshTokenStore } from '../services/token/src/grants/refresh-tokens';
import { revokeUserGrants } from '../services/token/src/grpc/revoke-user-grants';
import { RP_CLIENT, SessionManager, backChannel, signInSessions } from './people-signout';
import { loadAverage } from './support';
import {
  RECORDS,
  SAMPLES,
  TENANT,
  USERS,
  emailOf,
  flowEvents,
  mb,
  membershipOf,
  percentiles,
  userId,
} from './support-data';
import { loadEmbedded } from './support-embedded';

disableAllocationSitePretenuring();
const SESSIONS = Number(process.env.PEOPLE_SESSIONS ?? 20);
const SIGNOUTS = Number(process.env.PEOPLE_SIGNOUTS ?? 100);
const logger = createLogger({ service: 'bench', level: 'silent' });

const started = performance.now();
const data = await loadEmbedded(RECORDS, flowEvents, USERS);
globalThis.gc?.();
console.log(
  `embedded engine: ${USERS} people, ${RECORDS} records, loaded in ${((performance.now() - started) / 1000).toFixed(1)} s; heap ${mb(process.memoryUsage().heapUsed)}`,
);

const bus = createEmbeddedEventBus(data.engine);
const sessions = new SessionManager(new SqliteKeyValueStore(data.engine, 'sesame:auth:'), {
  ttlMs: 8 * 3600_000,
  secure: false,
});
const rp = await backChannel(bus, new SqliteKeyValueStore(data.engine, 'sesame:ciba-notifier:'), logger);
const signing = { kid: 'bench', key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey };
const rpClient = { clientId: RP_CLIENT, tenantId: TENANT, backchannelLogoutUri: rp.uri } as directory.Client;

const server = new GrpcServer({ logger });
const peerAt = () => `127.0.0.1:${port}`;
const keysClient = () => createClient(keys.KeysServiceClient, peerAt(), { deadlineMs: 10_000 });
let keysPeer: ReturnType<typeof keysClient> | undefined;
server.add<users.UsersServiceServer>(users.UsersServiceService, {
  removeUser: notImplemented,
  lookupUser: notImplemented,
  blockDevice: notImplemented,
  createInteractiveFlow: notImplemented,
  createActivationLink: notImplemented,
  findUsers: findUsers(data.store),
  getUserDetail: getUserDetail(data.store, data.passkeys),
  listUsers: listUsers(data.store, data.passkeys),
  removePasskey: removePasskey(data.store, data.passkeys),
  removePhoneNumber: removePhoneNumber(data.store),
  ...userSessionsGrpc({
    users: data.store,
    sessions,
    backchannel: {
      issuer: 'http://127.0.0.1/auth',
      logger,
      getClient: async (clientId) => (clientId === RP_CLIENT ? rpClient : undefined),
      signLogoutToken: async (request) => (await keysPeer!.signLogoutToken(request)).logoutToken,
      publisher: bus.publisher,
      now: Date.now,
    },
  }),
});
server.add<activitylogs.ActivityLogsServiceServer>(
  activitylogs.ActivityLogsServiceService,
  activityLogsGrpc({ activityLogs: data.flows, adminLogs: new MemoryAdminLogRepository() }),
);
server.add<keys.KeysServiceServer>(keys.KeysServiceService, {
  watchSigningKey: notImplemented,
  decryptRequestObject: notImplemented,
  rotateKeys: notImplemented,
  verifySignature: notImplemented,
  signLogoutToken: signLogoutTokenRpc({ signingKey: () => ({ ...signing, alg: 'RS256' }) }),
});
const tokenKv = new SqliteKeyValueStore(data.engine, 'sesame:token:');
server.add<grants.GrantsServiceServer>(grants.GrantsServiceService, {
  issueCode: notImplemented,
  startBackchannel: notImplemented,
  markBackchannelOpened: notImplemented,
  completeBackchannel: notImplemented,
  denyBackchannel: notImplemented,
  introspectAccessToken: notImplemented,
  revokeUserGrants: revokeUserGrants({ refreshTokens: new RefreshTokenStore(tokenKv), clock: systemClock }),
});
const port = await server.start(0, '127.0.0.1');
keysPeer = keysClient();
const usersClient = createClient(users.UsersServiceClient, peerAt(), { deadlineMs: 60_000 });
const logsClient = createClient(activitylogs.ActivityLogsServiceClient, peerAt(), { deadlineMs: 60_000 });
const grantsClient = createClient(grants.GrantsServiceClient, peerAt(), { deadlineMs: 60_000 });
const support = createSupportPort({
  users: usersClient,
  flows: supportFlowsPeer(logsClient),
  appName: async (_tenant, appId) => appId.toUpperCase(),
  clientName: async (_tenant, clientId) => clientId.toUpperCase(),
});

const rows: string[] = [];
/**
 * `cpuMs`: the process's CPU time per sample (every service runs in this process), which a loaded machine
 * stretches far less than the wall time: roughly what a sample takes on idle cores.
 */
function report(label: string, ms: number[], targetMs: number, cpuMs: number) {
  const { p50, p95, p99 } = percentiles(ms);
  const ratio = `${(p95 / targetMs).toFixed(2)}×`;
  const line = `${label.padEnd(58)} p50 ${p50.toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms (target ${targetMs} ms, ${ratio})  p99 ${p99.toFixed(1).padStart(6)} ms  CPU ${cpuMs.toFixed(1)} ms`;
  console.log(`${line}   [load ${loadAverage()}]`);
  const figures = [p50, p95, p99].map((v) => v.toFixed(1)).join(' / ');
  rows.push(`| ${label} | ${figures} ms | ${targetMs} ms (${ratio}) | ${cpuMs.toFixed(1)} ms |`);
}

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function measure(label: string, targetMs: number, run: (k: number) => Promise<unknown>) {
  for (let k = 0; k < 20; k++) await run(k + SAMPLES); // warm-up
  const ms: number[] = [];
  const cpu = cpuNow();
  for (let k = 0; k < SAMPLES; k++) {
    const t = performance.now();
    await run(k);
    ms.push(performance.now() - t);
  }
  report(label, ms, targetMs, (cpuNow() - cpu) / SAMPLES);
}

const person = (k: number) => (k * 104_729) % USERS;
console.log(`load before the look-ups: ${loadAverage()}`);

await measure('people list, first page of 50 (listPeople)', 50, async () => {
  const page = await support.listPeople(TENANT, 50);
  if (page.people.length !== 50 || page.people[0]!.userId !== userId(USERS - 1))
    throw new Error(`first page: ${page.people.length} people, first ${page.people[0]?.userId}`);
});
// The cursors of pages 2..501, walked once; each sample reads one of them again.
const cursors: string[] = [];
let cursor = (await support.listPeople(TENANT, 50)).nextCursor;
while (cursor && cursors.length < 500) {
  cursors.push(cursor);
  cursor = (await support.listPeople(TENANT, 50, cursor)).nextCursor;
}
await measure(`people list, a later page by cursor (pages 2–${cursors.length + 1})`, 50, async (k) => {
  const page = await support.listPeople(TENANT, 50, cursors[(k * 7919) % cursors.length]);
  if (page.people.length !== 50) throw new Error(`a later page had ${page.people.length} people`);
});
// A tenant with few of the people (every 100th also a member of it): a page reads at most SCAN_BUDGET people
// (auth's support-people.ts), so it comes back short, with a cursor, rather than read the whole store.
const SPARSE = 'bench-sparse';
const sparseMembers = data.engine.db
  .prepare('SELECT count(*) FROM auth_memberships WHERE tenant_id = ?')
  .pluck()
  .get(SPARSE) as number;
if (sparseMembers !== Math.ceil(USERS / 100))
  for (let i = 0; i < USERS; i += 100)
    await data.store.memberships.save({ ...membershipOf(i), tenantId: SPARSE });
await measure('people list of a tenant with 1 in 100 people, first page', 50, async () => {
  const page = await support.listPeople(SPARSE, 50);
  if (!page.nextCursor || page.people.some((p) => Number(p.userId.slice(5)) % 100 !== 0))
    throw new Error(`sparse page: ${page.people.length} people, cursor ${page.nextCursor}`);
});
await measure('prefix search, 3–5 letters ("per".."perso": everyone)', 50, async (k) => {
  const found = await support.findUsers(TENANT, emailOf(person(k)).slice(0, 3 + (k % 3)));
  if (found.length !== 50 || found[0]!.matchedBy !== 'email_prefix')
    throw new Error(`prefix search found ${found.length}, first by ${found[0]?.matchedBy}`);
});
await measure('prefix search, 8 letters ("person12": ~1,100 people)', 50, async (k) => {
  const found = await support.findUsers(TENANT, emailOf(person(k)).slice(0, 8));
  if (found.length === 0) throw new Error('prefix search found nobody');
});
await measure("person's page: detail + first 50 flows + sessions", 50, (k) =>
  Promise.all([
    support.userDetail(TENANT, userId(person(k))),
    support.listFlows(TENANT, { userId: userId(person(k)) }, 50),
    support.userSessions(TENANT, userId(person(k))),
  ]),
);

// Sign out everywhere: each sample a person not signed out before, with SESSIONS fresh sessions.
const authMs: number[] = [];
const useCaseMs: number[] = [];
const deliveredMs: number[] = [];
let signOutCpu = 0;
const admin = createAdminEventPublisher(bus.publisher, systemClock);
const caller = { adminEmail: 'bench@example.com', clientIp: '127.0.0.1', sessionId: 'bench' };
const emit: Emit = async (tenantId, activityType, d) => {
  await admin.publish(caller, tenantId, activityType, d);
};
const timedUsers = {
  signOutEverywhere: async (request: users.SignOutEverywhereRequest) => {
    const t = performance.now();
    const out = await usersClient.signOutEverywhere(request);
    authMs.push(performance.now() - t);
    return out;
  },
  setUserDisabled: usersClient.setUserDisabled.bind(usersClient),
};
for (let k = -10; k < SIGNOUTS; k++) {
  const who = userId((USERS - 1 - (k + 10) * 13) % USERS);
  await signInSessions(sessions, who, SESSIONS);
  const listed = await support.userSessions(TENANT, who);
  if (listed?.length !== SESSIONS) throw new Error(`${who} has ${listed?.length} sessions, not ${SESSIONS}`);
  const delivered = rp.expect(SESSIONS);
  const cpu = cpuNow();
  const t = performance.now();
  const out = await signOutEverywhere(
    { users: timedUsers, grants: grantsClient },
    { tenantId: TENANT, userId: who },
    emit,
  );
  useCaseMs.push(performance.now() - t);
  await delivered;
  deliveredMs.push(performance.now() - t);
  if (k >= 0) signOutCpu += cpuNow() - cpu;
  if (out.endedSessions !== SESSIONS) throw new Error(`ended ${out.endedSessions} of ${SESSIONS} sessions`);
  if (k < 0) for (const a of [authMs, useCaseMs, deliveredMs]) a.pop(); // warm-up
}
const perSignOut = signOutCpu / SIGNOUTS; // through the delivery: the RPC's and the use case's CPU is within it
report(`sign out everywhere, ${SESSIONS} sessions: auth's RPC alone`, authMs, 200, perSignOut);
report('  mgmt use case: auth RPC + token revoke + admin event', useCaseMs, 200, perSignOut);
report(`  ... until the RP received all ${SESSIONS} logout tokens`, deliveredMs, 200, perSignOut);
const head =
  '| through the support port | p50 / p95 / p99 | target (p95) | CPU per sample |\n|---|---|---|---|';
console.log(`load after: ${loadAverage()}\n\n${head}\n${rows.join('\n')}`);

await rp.close();
for (const c of [usersClient, logsClient, grantsClient, keysPeer]) c.close();
await server.stop(1000);
await bus.close?.();
data.close();
