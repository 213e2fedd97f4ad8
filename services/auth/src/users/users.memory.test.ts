import { userStoreContract } from './users.contract';
import { memoryUserStore } from './users.memory';

userStoreContract('memory', async () => memoryUserStore());
