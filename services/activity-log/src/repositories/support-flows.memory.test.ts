import { MemoryActivityLogRepository } from './activity-logs.memory';
import { supportFlowsContract } from './support-flows.contract';

supportFlowsContract('memory', async () => ({ repo: new MemoryActivityLogRepository() }));
