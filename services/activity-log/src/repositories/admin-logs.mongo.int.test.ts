import { silentLogger as logger } from '../testing/real-kafka';
import { emptyDatabase } from '../testing/running-service';
import { adminLogRepositoryContract } from './admin-logs.contract';
import { MongoAdminLogRepository } from './admin-logs.mongo';

adminLogRepositoryContract('mongo', async () => {
  const { conn } = await emptyDatabase('admin-logs-contract');
  const { repository } = await MongoAdminLogRepository.open(conn, { retentionDays: 365, logger });
  return { repo: repository, close: () => conn.close() };
});
