import { topics } from '@sesame/proto';
import { Kafka, logLevel } from 'kafkajs';

/**
 * Commits an e2e platform's new activity-log consumer groups at the current end of the flow- and admin-event
 * topics, before the platform starts. A new group otherwise reads the topics from the beginning: every event
 * the earlier e2e files published (thousands by the middle of a run), each written to this platform's own
 * database before its own events, which made a test's wait for its activity or admin logs grow with its place
 * in the run. Those events belong to other platforms' tenants, so skipping them loses nothing. Concrete offsets
 * (not "latest", which Kafka resolves only when the group first fetches) so nothing this platform publishes
 * while its consumers join is skipped.
 */
export async function startActivityGroupsAtEnd(brokers: string[], groupPrefix: string): Promise<void> {
  const admin = new Kafka({ clientId: 'e2e-groups', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const groups = [
      [`${groupPrefix}.flow-events`, topics.flowEvents],
      [`${groupPrefix}.admin-events`, topics.adminEvents],
    ] as const;
    for (const [groupId, topic] of groups) {
      if (!existing.has(topic)) continue; // nothing published yet: the beginning is the end
      const ends = await admin.fetchTopicOffsets(topic);
      await admin.setOffsets({
        groupId,
        topic,
        partitions: ends.map(({ partition, high }) => ({ partition, offset: high })),
      });
    }
  } finally {
    await admin.disconnect();
  }
}
