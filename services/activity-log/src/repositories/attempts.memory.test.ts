import { MemoryActivityLogRepository } from './activity-logs.memory';
import { attemptsContract } from './attempts.contract';

attemptsContract('memory', async () => ({ repo: new MemoryActivityLogRepository() }));
