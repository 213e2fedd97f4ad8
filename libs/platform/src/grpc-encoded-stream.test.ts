import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { activitylogs } from '@sesame/proto';
import { exportFlowsServer, exportedFlow as flow } from './testing/export-flows-server';

describe('GrpcServer: a server stream may write messages it has already encoded', () => {
  let peer: Awaited<ReturnType<typeof exportFlowsServer>>;

  beforeAll(async () => {
    peer = await exportFlowsServer((call) => {
      const encoded = activitylogs.ExportFlowsResponse.encode({ flows: [flow('encoded')] }).finish();
      call.write(Buffer.from(encoded));
      call.write({ flows: [flow('object')] });
      call.end();
    });
  });
  afterAll(() => peer?.stop());

  it('sends the bytes as they are, and a message object encoded as before', async () => {
    const received: string[] = [];
    for await (const m of peer.client.raw.exportFlows({
      tenantId: 't',
    }) as AsyncIterable<activitylogs.ExportFlowsResponse>)
      received.push(...m.flows.map((f) => f.id));
    assert.deepEqual(received, ['encoded', 'object']);
  });
});
