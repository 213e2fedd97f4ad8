import { MemoryKeyValueStore } from '@sesame/kv';
import { refreshTokenStoreContract } from './refresh-tokens.contract';

refreshTokenStoreContract('the in-memory store', () => new MemoryKeyValueStore());
