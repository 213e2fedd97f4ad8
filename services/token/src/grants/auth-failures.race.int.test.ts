import { RedisKeyValueStore } from '@sesame/kv';
import { realServers } from '@sesame/testing';
import { throttleRaceSuite } from './auth-failures.race';

throttleRaceSuite('redis', () => RedisKeyValueStore.connect(realServers().redisUrl, 'sesame:throttle-test:'));
