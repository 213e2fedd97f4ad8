import { keyValueStoreContract } from './contract';
import { MemoryKeyValueStore } from './memory';

keyValueStoreContract('memory', () => new MemoryKeyValueStore());
