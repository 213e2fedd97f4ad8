import { silentLogger as logger } from '../testing/real-kafka';
import { emptyDatabase } from '../testing/running-service';
import { activityLogRepositoryContract } from './activity-logs.contract';
import { MongoActivityLogRepository } from './activity-logs.mongo';

activityLogRepositoryContract('mongo', async () => {
  const { conn } = await emptyDatabase('activity-logs-contract');
  const { repository } = await MongoActivityLogRepository.open(conn, { retentionDays: 90, logger });
  return { repo: repository, close: () => conn.close() };
});
