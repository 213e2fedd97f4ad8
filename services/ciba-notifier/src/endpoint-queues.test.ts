import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { EndpointQueues } from './endpoint-queues';

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
};

describe('EndpointQueues', () => {
  it('runs at most `concurrency` jobs per endpoint; another endpoint is never held', async () => {
    const queues = new EndpointQueues({ concurrency: 2, maxWaiting: 10 });
    const hold = gate();
    const running: string[] = [];
    for (let i = 0; i < 5; i++)
      queues.push('https://slow.example', async () => {
        running.push(`slow-${i}`);
        await hold.opened;
      });
    let fastRan = false;
    queues.push('https://fast.example', async () => {
      fastRan = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(running, ['slow-0', 'slow-1']);
    assert.equal(fastRan, true);
    hold.open();
    await queues.idle();
    assert.equal(running.length, 5);
  });

  it('a full queue drops its oldest waiting job and says so', async () => {
    const dropped: string[] = [];
    const queues = new EndpointQueues({ concurrency: 1, maxWaiting: 2, onDropped: (e) => dropped.push(e) });
    const hold = gate();
    const ran: number[] = [];
    for (let i = 0; i < 5; i++)
      queues.push(
        'https://slow.example',
        async () => {
          ran.push(i);
          await hold.opened;
        },
        () => dropped.push(`job-${i}`),
      );
    hold.open();
    await queues.idle();
    assert.deepEqual(ran, [0, 3, 4]);
    assert.deepEqual(dropped, ['job-1', 'https://slow.example', 'job-2', 'https://slow.example']);
  });
});
