import { connectMongo } from '@sesame/mongo';
import { createLogger } from '@sesame/platform';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { activityLogRepositoryContract } from './activity-logs.contract';
import { MongoActivityLogRepository } from './activity-logs.mongo';

activityLogRepositoryContract('mongo', async () => {
  const conn = await connectMongo(isolatedMongoUrl(realServers().mongoUrl, 'activity-logs-contract'), {
    appName: 'activity-logs-contract',
  });
  await conn.dropDatabase();
  const logger = createLogger({ service: 'activity-log-test', level: 'silent' });
  const { repository } = await MongoActivityLogRepository.open(conn, { retentionDays: 90, logger });
  return { repo: repository, close: () => conn.close() };
});
