// The real activity-log pieces (a devDependency: services never import each other at run time).
import {
  MemoryAdminLogRepository,
  activityLogsGrpc,
  createFlowEventsConsumer,
} from '@sesame/activity-log-service';
import {
  type RealPipeline,
  realPipeline,
  silentLogger,
} from '@sesame/activity-log-service/testing/real-kafka';
import type { AsyncServer } from '@sesame/platform';
import type { activitylogs } from '@sesame/proto';

export interface RealActivityLog {
  /** Kafka topics and a Mongo-wire database of this test alone (libraryOn publishes flow events into it). */
  pipeline: RealPipeline;
  /** activity-log's ActivityLogs gRPC handlers over the records its consumer writes. */
  handlers: AsyncServer<activitylogs.ActivityLogsServiceServer>;
  /** Stops the consumer, then closes the pipeline. */
  stop(): Promise<void>;
}

/**
 * activity-log as far as mgmt reads it: its flow-events consumer running on a real pipeline of its own
 * (`name`), and its gRPC handlers over the records (admin logs in memory).
 */
export async function startRealActivityLog(name: string): Promise<RealActivityLog> {
  const pipeline = await realPipeline(name);
  const consumer = createFlowEventsConsumer({
    ...pipeline,
    repository: pipeline.repository,
    logger: silentLogger,
  });
  await consumer.start();
  return {
    pipeline,
    handlers: activityLogsGrpc({
      activityLogs: pipeline.repository,
      adminLogs: new MemoryAdminLogRepository(),
    }),
    async stop() {
      await consumer.stop();
      await pipeline.close();
    },
  };
}
