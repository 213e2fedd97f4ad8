import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import express from 'express';
import { type WatchedFlows, flowStatusHandler } from './flow-status';

interface TestFlow {
  sessionKey: string;
  done?: boolean;
  readyAt?: number;
}

/** Flows in a map, counting reads, with watchers a test signals by hand (as the KV store's signals would). */
class Flows implements WatchedFlows<TestFlow> {
  readonly flows = new Map<string, TestFlow>();
  readonly watchers = new Map<string, Set<() => void>>();
  reads = 0;

  async load(id: string) {
    this.reads++;
    const flow = this.flows.get(id);
    return flow && { ...flow };
  }

  async watch(id: string, listener: () => void) {
    const set = this.watchers.get(id) ?? new Set();
    this.watchers.set(id, set);
    set.add(listener);
    return () => void set.delete(listener);
  }

  signal(id: string) {
    for (const listener of [...(this.watchers.get(id) ?? [])]) listener();
  }

  watching(id: string) {
    return this.watchers.get(id)?.size ?? 0;
  }
}

const flows = new Flows();
// The browser's session is the `session` header's value (the handler only compares keys).
const sessions = {
  load: async (req: express.Request) => ({ key: String(req.headers.session), csrf: '', createdAt: 0 }),
};
let server: Server;
let base: string;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  const app = express();
  app.get(
    '/flow/:flowId/status',
    flowStatusHandler(
      sessions,
      flows,
      (flow) => Boolean(flow.done) || Date.now() >= (flow.readyAt ?? Number.POSITIVE_INFINITY),
      {
        readyBy: (flow) => flow.readyAt,
        checkEveryMs: 60_000, // longer than any wait below: only signals and readyBy wake a waiting request
      },
    ),
  );
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const status = async (id: string, wait: number, session = 's1', signal?: AbortSignal) => {
  const started = Date.now();
  const res = await fetch(`${base}/flow/${id}/status?wait=${wait}`, { headers: { session }, signal });
  return { status: res.status, body: await res.json(), ms: Date.now() - started };
};

describe('flowStatusHandler (long polling woken by the flow store)', () => {
  it('answers ready as soon as the store signals the change, reading the flow only when woken', async () => {
    flows.flows.set('f1', { sessionKey: 's1' });
    flows.reads = 0;
    const answer = status('f1', 20);
    await sleep(300);
    assert.equal(flows.watching('f1'), 1);
    const readsWhileWaiting = flows.reads;
    await sleep(300);
    assert.equal(flows.reads, readsWhileWaiting, 'no reads while nothing changes');
    flows.flows.set('f1', { sessionKey: 's1', done: true });
    flows.signal('f1');
    const { body, ms } = await answer;
    assert.deepEqual(body, { state: 'ready' });
    assert.ok(ms < 1500, `answered ${ms} ms after asking`);
    assert.equal(flows.reads, readsWhileWaiting + 1);
    assert.equal(flows.watching('f1'), 0, 'stops watching once answered');
  });

  it('a change made between the first read and the watch is not missed', async () => {
    flows.flows.set('f2', { sessionKey: 's1' });
    const real = flows.watch.bind(flows);
    flows.watch = async (id, listener) => {
      // The change lands (and signals nobody) just before the watch starts.
      flows.flows.set(id, { sessionKey: 's1', done: true });
      return real(id, listener);
    };
    try {
      const { body, ms } = await status('f2', 20);
      assert.deepEqual(body, { state: 'ready' });
      assert.ok(ms < 1500, `${ms} ms`);
    } finally {
      flows.watch = real;
    }
  });

  it('wakes when the flow becomes ready by itself (readyBy), with no signal', async () => {
    flows.flows.set('f3', { sessionKey: 's1', readyAt: Date.now() + 400 });
    const { body, ms } = await status('f3', 20);
    assert.deepEqual(body, { state: 'ready' });
    assert.ok(ms >= 350 && ms < 1500, `${ms} ms`);
  });

  it('answers pending after the wait, and expired when the flow goes away', async () => {
    flows.flows.set('f4', { sessionKey: 's1' });
    const pending = await status('f4', 1);
    assert.deepEqual(pending.body, { state: 'pending' });
    assert.ok(pending.ms >= 950 && pending.ms < 2000, `${pending.ms} ms`);

    const answer = status('f4', 20);
    await sleep(200);
    flows.flows.delete('f4');
    flows.signal('f4');
    assert.deepEqual((await answer).body, { state: 'expired' });
  });

  it("tells another browser's session only expired, without watching", async () => {
    flows.flows.set('f5', { sessionKey: 's1' });
    const { body, ms } = await status('f5', 20, 'someone-else');
    assert.deepEqual(body, { state: 'expired' });
    assert.ok(ms < 1000);
    assert.equal(flows.watching('f5'), 0);
  });

  it('still answers when it cannot watch (the subscription failed), by looking at the flow itself', async () => {
    flows.flows.set('f7', { sessionKey: 's1' });
    const real = flows.watch.bind(flows);
    flows.watch = async () => {
      throw new Error('subscriber connection refused');
    };
    try {
      const answer = status('f7', 20);
      await sleep(200);
      flows.flows.set('f7', { sessionKey: 's1', done: true }); // no signal reaches anyone
      const { status: code, body, ms } = await answer;
      assert.equal(code, 200);
      assert.deepEqual(body, { state: 'ready' });
      assert.ok(ms < 1500, `${ms} ms, not the 60 s checkEveryMs`);
    } finally {
      flows.watch = real;
    }
  });

  it('stops watching when the page goes away mid-wait', async () => {
    flows.flows.set('f6', { sessionKey: 's1' });
    const abort = new AbortController();
    const answer = status('f6', 20, 's1', abort.signal).catch(() => 'aborted');
    await sleep(200);
    assert.equal(flows.watching('f6'), 1);
    abort.abort();
    assert.equal(await answer, 'aborted');
    for (let waited = 0; flows.watching('f6') > 0 && waited < 2000; waited += 20) await sleep(20);
    assert.equal(flows.watching('f6'), 0);
  });
});
