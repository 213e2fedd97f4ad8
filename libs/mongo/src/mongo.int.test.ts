import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { Schema } from 'mongoose';
import { type Connection, connectMongo, pingMongo, syncIndexes } from './index';

interface Visit {
  tenantId: string;
  userId: string;
  at: number;
}

describe('mongoose through the MongoDB-wire server', () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await connectMongo(isolatedMongoUrl(realServers().mongoUrl, `mongo_lib_${Date.now()}`), {
      appName: 'sesame-test',
    });
  });
  afterAll(async () => {
    await conn.dropDatabase();
    await conn.close();
  });

  it('answers a ping', async () => {
    await pingMongo(conn);
  });

  it('creates declared indexes and serves an indexed, sorted, tenant-scoped query', async () => {
    const schema = new Schema<Visit>({ tenantId: String, userId: String, at: Number });
    schema.index({ tenantId: 1, userId: 1, at: -1 }, { name: 'tenant_user_time' });
    const Visits = conn.model<Visit>('Visit', schema, 'visits');
    await syncIndexes(conn);
    const names = (await Visits.collection.indexes()).map((i) => i.name);
    assert.ok(names.includes('tenant_user_time'), `indexes: ${names.join(', ')}`);

    await Visits.insertMany([
      { tenantId: 't1', userId: 'u1', at: 1 },
      { tenantId: 't1', userId: 'u1', at: 3 },
      { tenantId: 't1', userId: 'u2', at: 2 },
      { tenantId: 't2', userId: 'u1', at: 4 },
    ]);
    const rows = await Visits.find({ tenantId: 't1', userId: 'u1' })
      .sort({ at: -1 })
      .hint('tenant_user_time')
      .lean();
    assert.deepEqual(
      rows.map((r) => r.at),
      [3, 1],
    );
    assert.equal(await Visits.countDocuments({ tenantId: 't2' }), 1);
  });

  it('rejects a duplicate on a unique index', async () => {
    const schema = new Schema({ key: { type: String, unique: true } });
    const Uniques = conn.model('Unique', schema, 'uniques');
    await Uniques.createIndexes();
    await Uniques.create({ key: 'a' });
    await assert.rejects(Uniques.create({ key: 'a' }), (err: { code?: number }) => err.code === 11000);
  });
});
