import { MemoryKeyValueStore } from '@sesame/kv';
import { throttleRaceSuite } from './auth-failures.race';

throttleRaceSuite('memory', () => new MemoryKeyValueStore());
