import { MemoryKeyRepository } from './key.repository';
import { keyRepositoryContract } from './key.repository.contract';

keyRepositoryContract('memory', async () => new MemoryKeyRepository());
