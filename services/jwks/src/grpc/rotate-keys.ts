import type { keys } from '@sesame/proto';
import type { KeyManager } from '../keys/key-manager';

/** RotateKeys: publishes new keys now; they sign / are preferred after the publish delay. */
export function rotateKeysRpc(manager: KeyManager) {
  return async (): Promise<keys.RotateKeysResponse> => {
    const { signing, encryption, activatesAt } = await manager.rotate();
    return { signingKid: signing.kid, encryptionKid: encryption.kid, activatesAt };
  };
}
