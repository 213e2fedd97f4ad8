import type { Admin } from 'kafkajs';

/**
 * How long ensureTopics waits for a new topic to be created, for every partition to have a leader, and for each
 * leader to serve its partition.
 */
export const TOPIC_READY_MS = 15_000;
/**
 * Metadata errors a broker answers while a topic it has just created is still spreading: kafkajs's own
 * waitForLeaders retries only LEADER_NOT_AVAILABLE, and a fresh broker answers UNKNOWN_TOPIC_OR_PARTITION first.
 */
const NOT_READY_YET = new Set([
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'NOT_LEADER_FOR_PARTITION',
]);

/**
 * Resolves once every partition of every topic has a leader and each leader serves its partition; throws
 * after readyMs. A leader named in the metadata may not have loaded its partition yet: on three brokers a
 * produce or fetch sent to it a moment after the topic was created was answered "does not host this
 * topic-partition", which made producers buffer whole batches in the outbox and consumers crash and restart,
 * both delivering events twice (the events contract on test:ha). Asking each leader for its partition's offsets
 * (fetchTopicOffsets: ListOffsets to every leader) is answered only once it serves the partition.
 */
export async function waitForLeaders(
  admin: Pick<Admin, 'fetchTopicMetadata' | 'fetchTopicOffsets'>,
  topics: string[],
  readyMs = TOPIC_READY_MS,
): Promise<void> {
  const deadline = Date.now() + readyMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1_000)) {
    let waitingFor: string;
    try {
      const { topics: meta } = await admin.fetchTopicMetadata({ topics });
      const notLed = meta.find((t) => t.partitions.length === 0 || t.partitions.some((p) => p.leader < 0));
      if (!notLed) {
        waitingFor = 'every leader to serve its partitions';
        for (const topic of topics) await admin.fetchTopicOffsets(topic);
        return;
      }
      waitingFor = `a leader for every partition of ${notLed.name}`;
    } catch (err) {
      // kafkajs wraps the broker's answer when its own retries run out.
      const e = err as { type?: string; originalError?: { type?: string } };
      const type = e.type ?? e.originalError?.type ?? '';
      if (!NOT_READY_YET.has(type) && !NOT_READY_YET.has(e.originalError?.type ?? '')) throw err;
      waitingFor = `topic metadata or offsets (${e.originalError?.type ?? type})`;
    }
    if (Date.now() + delay > deadline) {
      throw new Error(`kafka: timed out after ${readyMs} ms waiting for ${waitingFor}`);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * Runs fn again while a broker answers that it does not know a topic yet: on several brokers a topic created a
 * moment ago reaches each broker's metadata a little later, and a consumer's subscribe that asks such a broker
 * fails with UNKNOWN_TOPIC_OR_PARTITION. Any other error, or the same one after readyMs, is thrown.
 */
export async function retryWhileUnknown<T>(fn: () => Promise<T>, readyMs = TOPIC_READY_MS): Promise<T> {
  const deadline = Date.now() + readyMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1_000)) {
    try {
      return await fn();
    } catch (err) {
      const e = err as { type?: string; originalError?: { type?: string } };
      const type = e.type ?? e.originalError?.type;
      if (type !== 'UNKNOWN_TOPIC_OR_PARTITION' || Date.now() + delay > deadline) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
