import { adminLogRepositoryContract } from './admin-logs.contract';
import { MemoryAdminLogRepository } from './admin-logs.memory';

adminLogRepositoryContract('memory', async () => ({ repo: new MemoryAdminLogRepository() }));
