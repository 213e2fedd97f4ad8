/**
 * Part of bench/activity.bench.ts: the shape of a stored activity record for loading, and the timing of the
 * Mongo-wire server's own writes (its ceiling, whatever the consumer does).
 */
import type { connectMongo } from '@sesame/mongo';

type Db = NonNullable<Awaited<ReturnType<typeof connectMongo>>['db']>;

export const T0 = 1_700_000_000_000;
/** Every user has ~100 flows whatever N, so a userId page is always a full page. */
export const USERS_PER_RECORD = 100;

/** Record i of a collection of n, as the repository stores it. */
export function recordDoc(i: number, n: number) {
  const flowId = `q-${i}`;
  const timestamp = T0 + i * 1000;
  const event = (k: number, action: string) => ({
    id: `${flowId}-${k}`,
    timestamp: timestamp + k * 50,
    payload: { flowId, details: { action, clientIp: '203.0.113.7' } },
  });
  return {
    tenantId: 'bench-tenant',
    flowId,
    appId: 'bench-app',
    timestamp,
    userId: `user-${i % Math.max(1, Math.floor(n / USERS_PER_RECORD))}`,
    userAlias: `alias-${i % 1000}`,
    accessingDevice: 'macOS 14 Chrome 120',
    accessingIp: '203.0.113.7',
    flowType: 'authentication',
    status: 'success',
    events: [event(0, 'auth_start_oidc'), event(1, 'desktop_login_page'), event(2, 'auth_complete')],
    versions: {},
    rev: 1,
    expireAt: new Date(timestamp + 90 * 86_400_000),
  };
}

/**
 * What the server itself can write, whatever the consumer does: the ceiling the ingest ratio runs into. Timed on
 * a scratch collection of CEILING_DOCS records: insertMany, updateOne by _id, and the repository's guarded
 * update (tenantId, flowId, rev).
 */
export const CEILING_DOCS = 5_000;
export async function serverCeiling(db: Db) {
  const scratch = db.collection<{ _id: string; [k: string]: unknown }>('bench_ceiling');
  await scratch.deleteMany({});
  const docs = Array.from({ length: CEILING_DOCS }, (_, i) => {
    const { flowId: _f, ...rest } = recordDoc(i, CEILING_DOCS);
    return { _id: `c-${i}`, ...rest, flowId: `c-${i}` };
  });
  let t = performance.now();
  for (let i = 0; i < docs.length; i += 1000)
    await scratch.insertMany(docs.slice(i, i + 1000), { ordered: false });
  const inserts = (CEILING_DOCS / (performance.now() - t)) * 1000;
  const updates = async (n: number, filter: (i: number) => Record<string, unknown>) => {
    const ops = Array.from({ length: n }, (_, i) => ({
      updateOne: { filter: filter((i * 7) % CEILING_DOCS), update: { $set: { status: `s${i}` } } },
    }));
    t = performance.now();
    for (let i = 0; i < ops.length; i += 50)
      await scratch.bulkWrite(ops.slice(i, i + 50) as never, { ordered: false });
    return (n / (performance.now() - t)) * 1000;
  };
  const byId = await updates(300, (i) => ({ _id: `c-${i}` }));
  const guarded = await updates(100, (i) => ({ tenantId: 'bench-tenant', flowId: `c-${i}`, rev: 1 }));
  await scratch.drop();
  console.log(
    `server write ceiling (${CEILING_DOCS} records): insertMany ${inserts.toFixed(0)} docs/s, ` +
      `updateOne by _id ${byId.toFixed(0)}/s, guarded updateOne (tenantId, flowId, rev) ${guarded.toFixed(0)}/s`,
  );
  return { inserts, byId, guarded };
}
