import { silentLogger as logger } from '../testing/real-kafka';
import { emptyDatabase } from '../testing/running-service';
import { MongoActivityLogRepository } from './activity-logs.mongo';
import { supportFlowsContract } from './support-flows.contract';

supportFlowsContract('mongo', async () => {
  const { conn } = await emptyDatabase('support-flows-contract');
  const { repository } = await MongoActivityLogRepository.open(conn, { retentionDays: 90, logger });
  return { repo: repository, close: () => conn.close() };
});
