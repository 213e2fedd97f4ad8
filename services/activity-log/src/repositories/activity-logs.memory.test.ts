import { activityLogRepositoryContract } from './activity-logs.contract';
import { MemoryActivityLogRepository } from './activity-logs.memory';

activityLogRepositoryContract('memory', async () => ({ repo: new MemoryActivityLogRepository() }));
