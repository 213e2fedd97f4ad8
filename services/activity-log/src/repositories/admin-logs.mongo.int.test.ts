import { connectMongo } from '@sesame/mongo';
import { createLogger } from '@sesame/platform';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { adminLogRepositoryContract } from './admin-logs.contract';
import { MongoAdminLogRepository } from './admin-logs.mongo';

adminLogRepositoryContract('mongo', async () => {
  const conn = await connectMongo(isolatedMongoUrl(realServers().mongoUrl, 'admin-logs-contract'), {
    appName: 'admin-logs-contract',
  });
  await conn.dropDatabase();
  const logger = createLogger({ service: 'activity-log-test', level: 'silent' });
  const { repository } = await MongoAdminLogRepository.open(conn, { retentionDays: 365, logger });
  return { repo: repository, close: () => conn.close() };
});
