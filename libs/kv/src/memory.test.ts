import { keyValueStoreContract } from './contract';
import { MemoryKeyValueStore } from './memory';
import { pendingEntriesContract } from './pending-contract';

keyValueStoreContract('memory', () => new MemoryKeyValueStore());

pendingEntriesContract('memory', () => new MemoryKeyValueStore());
