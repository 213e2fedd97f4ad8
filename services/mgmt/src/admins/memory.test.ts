import { adminsContract } from './contract';
import { memoryAdmins } from './memory';

adminsContract('memory', async () => memoryAdmins());
