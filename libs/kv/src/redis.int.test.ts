import { realServers } from '@sesame/testing';
import { keyValueStoreContract } from './contract';
import { RedisKeyValueStore } from './redis';

keyValueStoreContract('redis', () =>
  RedisKeyValueStore.connect(realServers().redisUrl, 'sesame:contract-test:'),
);
