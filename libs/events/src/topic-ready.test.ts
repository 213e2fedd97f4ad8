import { describe, expect, it } from '@jest/globals';
import type { Admin } from 'kafkajs';
import { retryWhileUnknown, waitForLeaders } from './topic-ready';

type Metadata = Awaited<ReturnType<Admin['fetchTopicMetadata']>>;
type Answer = Metadata | { type: string } | { originalError: { type: string } };

const led = (name: string, leaders: number[]): Metadata['topics'][number] => ({
  name,
  partitions: leaders.map((leader, partitionId) => ({
    partitionErrorCode: leader < 0 ? 5 : 0,
    partitionId,
    leader,
    replicas: [1],
    isr: [1],
  })),
});

type OffsetsAnswer = 'served' | { type: string } | { originalError: { type: string } };

/**
 * An admin whose metadata answers are scripted, one per call, and whose leaders' offsets answers too (each
 * topic asked in turn); the last of each repeats. Records the topics whose offsets were asked.
 */
function scripted(answers: Answer[], offsets: OffsetsAnswer[] = ['served']) {
  let calls = 0;
  let offsetCalls = 0;
  const offsetsAsked: string[] = [];
  const admin = {
    fetchTopicMetadata: async () => {
      const answer = answers[Math.min(calls++, answers.length - 1)]!;
      if ('topics' in answer) return answer;
      throw Object.assign(new Error('broker said no'), answer);
    },
    fetchTopicOffsets: async (topic: string) => {
      offsetsAsked.push(topic);
      const answer = offsets[Math.min(offsetCalls++, offsets.length - 1)]!;
      if (answer === 'served') return [{ partition: 0, offset: '0', high: '0', low: '0' }];
      throw Object.assign(new Error('broker said no'), answer);
    },
  };
  return { admin, calls: () => calls, offsetsAsked };
}

describe('waitForLeaders (ensureTopics on a broker that has just created the topics)', () => {
  it('retries "does not host this topic-partition" and leaderless partitions until every partition is led', async () => {
    const { admin, calls } = scripted([
      { type: 'UNKNOWN_TOPIC_OR_PARTITION' },
      { originalError: { type: 'UNKNOWN_TOPIC_OR_PARTITION' } },
      { topics: [led('a', [1, -1, 1]), led('b', [1, 1, 1])] },
      { type: 'LEADER_NOT_AVAILABLE' },
      { topics: [led('a', [1, 1, 1]), led('b', [1, 1, 1])] },
    ]);
    await waitForLeaders(admin, ['a', 'b'], 10_000);
    expect(calls()).toBe(5);
  });

  it('then waits until every leader serves its partitions: a leader named a moment ago may not host them yet', async () => {
    const { admin, calls, offsetsAsked } = scripted(
      [{ topics: [led('a', [1, 2, 3]), led('b', [2, 3, 1])] }],
      [
        { type: 'UNKNOWN_TOPIC_OR_PARTITION' },
        'served',
        { originalError: { type: 'NOT_LEADER_FOR_PARTITION' } },
        'served',
        'served',
      ],
    );
    await waitForLeaders(admin, ['a', 'b'], 10_000);
    // a refused, then a served and b refused, then both served: three rounds of metadata and offsets.
    expect({ calls: calls(), offsetsAsked }).toEqual({ calls: 3, offsetsAsked: ['a', 'a', 'b', 'a', 'b'] });
  });

  it('gives up naming the broker’s refusal when the leaders never serve their partitions in time', async () => {
    const { admin } = scripted(
      [{ topics: [led('orders', [1, 2])] }],
      [{ type: 'UNKNOWN_TOPIC_OR_PARTITION' }],
    );
    await expect(waitForLeaders(admin, ['orders'], 250)).rejects.toThrow(
      'kafka: timed out after 250 ms waiting for topic metadata or offsets (UNKNOWN_TOPIC_OR_PARTITION)',
    );
  });

  it('passes any other broker error straight through', async () => {
    const { admin, calls } = scripted([{ type: 'TOPIC_AUTHORIZATION_FAILED' }]);
    await expect(waitForLeaders(admin, ['a'], 10_000)).rejects.toMatchObject({
      type: 'TOPIC_AUTHORIZATION_FAILED',
    });
    expect(calls()).toBe(1);
  });

  it('gives up with a message naming what it waited for once its time is spent', async () => {
    const { admin } = scripted([{ topics: [led('orders', [1, -1])] }]);
    await expect(waitForLeaders(admin, ['orders'], 250)).rejects.toThrow(
      'kafka: timed out after 250 ms waiting for a leader for every partition of orders',
    );
  });
});

describe('retryWhileUnknown', () => {
  const unknown = () =>
    Object.assign(new Error('This server does not host this topic-partition'), {
      type: 'UNKNOWN_TOPIC_OR_PARTITION',
    });

  it('tries again while the broker does not know the topic, then returns the answer', async () => {
    let calls = 0;
    const answer = await retryWhileUnknown(async () => {
      if (++calls < 3) throw unknown();
      return 'subscribed';
    });
    expect([answer, calls]).toEqual(['subscribed', 3]);
  });

  it('throws any other error at once, and the unknown topic once the time is up', async () => {
    let calls = 0;
    await expect(
      retryWhileUnknown(async () => {
        calls++;
        throw Object.assign(new Error('no'), { type: 'TOPIC_AUTHORIZATION_FAILED' });
      }),
    ).rejects.toMatchObject({ type: 'TOPIC_AUTHORIZATION_FAILED' });
    expect(calls).toBe(1);
    const started = Date.now();
    await expect(
      retryWhileUnknown(async () => {
        throw unknown();
      }, 300),
    ).rejects.toMatchObject({ type: 'UNKNOWN_TOPIC_OR_PARTITION' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
