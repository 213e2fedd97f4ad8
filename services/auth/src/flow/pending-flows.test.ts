import { EmbeddedStore } from '@sesame/embedded-store';
import { tempEngines } from '@sesame/embedded-store/testing';
import { MemoryKeyValueStore, SqliteKeyValueStore } from '@sesame/kv';
import { pendingFlowsContract } from './pending-flows.contract';

pendingFlowsContract('the memory KV', () => new MemoryKeyValueStore());

const tempDir = tempEngines('auth-pending-flows').dir;
pendingFlowsContract('the embedded KV', () => {
  const engine = EmbeddedStore.open({ dir: tempDir() });
  const kv = new SqliteKeyValueStore(engine, 'sesame:auth:');
  const close = kv.close.bind(kv);
  kv.close = async () => {
    await close();
    engine.close();
  };
  return kv;
});
