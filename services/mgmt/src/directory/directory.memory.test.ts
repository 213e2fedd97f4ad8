import { directoryContract } from './directory.contract';
import { memoryDirectory } from './directory.memory';

directoryContract('memory', async () => memoryDirectory());
