import { GrpcError, GrpcStatus } from '@sesame/platform';
import type { keys } from '@sesame/proto';
import type { KeyManager } from '../keys/key-manager';
import { RequestObjectError, decryptRequestObject } from '../keys/request-object';

/** DecryptRequestObject: bad input is INVALID_ARGUMENT with a message auth can pass on to the RP. */
export function decryptRequestObjectRpc(manager: KeyManager) {
  return async (request: keys.DecryptRequestObjectRequest): Promise<keys.DecryptRequestObjectResponse> => {
    try {
      return await decryptRequestObject(request.jwe, (kid) => manager.decryptionKey(kid));
    } catch (err) {
      if (err instanceof RequestObjectError) throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, err.message);
      throw err;
    }
  };
}
