import { RedisKeyValueStore } from '@sesame/kv';
import { realServers } from '@sesame/testing';
import { refreshTokenStoreContract } from './refresh-tokens.contract';

refreshTokenStoreContract('real Redis', () =>
  RedisKeyValueStore.connect(realServers().redisUrl, 'sesame:token-refresh-contract:'),
);
