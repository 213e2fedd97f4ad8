import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { GrpcStatus, createClient, isGrpcStatus } from '@sesame/platform';
import { exportFlowsServer, exportedFlow as flow } from '@sesame/platform/testing';
import { activitylogs } from '@sesame/proto';
import { supportFlowsPeer } from './peers';

describe('supportFlowsPeer: the export stream', () => {
  let peer: Awaited<ReturnType<typeof exportFlowsServer>>;
  let cancelled: Promise<void>;

  beforeAll(async () => {
    peer = await exportFlowsServer((call) => {
      if (call.request.tenantId === 'endless') {
        cancelled = new Promise((resolve) => call.on('cancelled', () => resolve()));
        const more = () => {
          while (call.write({ flows: [flow('again')] }));
          call.once('drain', more);
        };
        more();
        return;
      }
      call.write({ flows: [flow('f2'), flow('f1', 'a@example.com')] });
      call.write({ flows: [flow('f0')] });
      call.end();
    });
  });
  afterAll(() => peer?.stop());

  it('yields each message decoded, in order', async () => {
    const got: string[] = [];
    for await (const m of supportFlowsPeer(peer.client).exportFlows({ tenantId: 't' }))
      got.push(...m.flows.map((f) => `${f.id}:${f.email ?? '-'}`));
    assert.deepEqual(got, ['f2:-', 'f1:a@example.com', 'f0:-']);
  });

  it('leaving the loop early cancels the call', async () => {
    let seen = 0;
    for await (const _ of supportFlowsPeer(peer.client).exportFlows({ tenantId: 'endless' })) {
      if (++seen === 3) break;
    }
    await cancelled;
    assert.equal(seen, 3);
  });

  it('an activity log that does not answer is UNAVAILABLE before any message', async () => {
    const down = createClient(activitylogs.ActivityLogsServiceClient, '127.0.0.1:1');
    try {
      const got: unknown[] = [];
      await assert.rejects(
        (async () => {
          for await (const m of supportFlowsPeer(down).exportFlows({ tenantId: 't' })) got.push(m);
        })(),
        (err) => isGrpcStatus(err, GrpcStatus.UNAVAILABLE),
      );
      assert.equal(got.length, 0);
    } finally {
      down.close();
    }
  });
});
