import { silentLogger as logger } from '../testing/real-kafka';
import { emptyDatabase } from '../testing/running-service';
import { MongoActivityLogRepository } from './activity-logs.mongo';
import { attemptsContract } from './attempts.contract';

attemptsContract('mongo', async () => {
  const { conn } = await emptyDatabase('attempts-contract');
  const { repository } = await MongoActivityLogRepository.open(conn, { retentionDays: 90, logger });
  return { repo: repository, close: () => conn.close() };
});
