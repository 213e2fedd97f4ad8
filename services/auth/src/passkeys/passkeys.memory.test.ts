import { passkeyStoreContract } from './passkeys.contract';
import { memoryPasskeyStore } from './passkeys.memory';

passkeyStoreContract('memory', async () => memoryPasskeyStore());
