import type { KeyObject } from 'node:crypto';
import {
  REQUEST_OBJECT_ENCRYPTION_ALGS as requestObjectAlgs,
  REQUEST_OBJECT_ENCRYPTION_ENCS as requestObjectEncs,
} from '@sesame/oauth';
import { compactDecrypt, decodeProtectedHeader } from 'jose';

/** The JWE algorithms request objects may use (@sesame/oauth; discovery publishes the same lists). */
export { requestObjectAlgs, requestObjectEncs };
const MAX_JWE_LENGTH = 64 * 1024;
const COMPACT_JWE = /^[\w-]+\.[\w-]*\.[\w-]*\.[\w-]+\.[\w-]*$/;

/** Why a request object was refused; the message is meant for the RP (it becomes invalid_request_object). */
export class RequestObjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestObjectError';
  }
}

export type DecryptionKeyResolver = (kid: string | undefined) => { kid: string; key: KeyObject } | undefined;

/**
 * Decrypts a compact JWE with the enc key named by its kid header (the current one or an older key still
 * published in /jwks), or the current enc key when it names none. Compressed JWEs are refused.
 */
export async function decryptRequestObject(
  jwe: string,
  resolveKey: DecryptionKeyResolver,
): Promise<{ plaintext: string; kid: string }> {
  if (!jwe) throw new RequestObjectError('request object is empty');
  if (jwe.length > MAX_JWE_LENGTH)
    throw new RequestObjectError(`request object exceeds ${MAX_JWE_LENGTH} bytes`);
  if (!COMPACT_JWE.test(jwe))
    throw new RequestObjectError('request object is not a compact JWE (five base64url parts)');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jwe);
  } catch {
    throw new RequestObjectError('request object has no valid JWE protected header');
  }
  if (!requestObjectAlgs.includes(header.alg as (typeof requestObjectAlgs)[number])) {
    throw new RequestObjectError(
      `JWE alg ${String(header.alg)} is not supported; use ${requestObjectAlgs.join(', ')}`,
    );
  }
  if (!requestObjectEncs.includes(header.enc as (typeof requestObjectEncs)[number])) {
    throw new RequestObjectError(
      `JWE enc ${String(header.enc)} is not supported; use one of ${requestObjectEncs.join(', ')}`,
    );
  }
  if (header.zip !== undefined)
    throw new RequestObjectError('compressed (zip) request objects are not supported');
  if (header.kid !== undefined && typeof header.kid !== 'string')
    throw new RequestObjectError('JWE kid must be a string');
  const resolved = resolveKey(header.kid);
  if (!resolved) {
    throw new RequestObjectError(
      header.kid
        ? `JWE kid ${header.kid} is not a published enc key; fetch /jwks again`
        : 'no enc key is available',
    );
  }
  let plaintext: Uint8Array;
  try {
    ({ plaintext } = await compactDecrypt(jwe, resolved.key, {
      keyManagementAlgorithms: [...requestObjectAlgs],
      contentEncryptionAlgorithms: [...requestObjectEncs],
      maxDecompressedLength: 0,
    }));
  } catch {
    throw new RequestObjectError(`request object could not be decrypted with enc key ${resolved.kid}`);
  }
  try {
    return { plaintext: new TextDecoder('utf-8', { fatal: true }).decode(plaintext), kid: resolved.kid };
  } catch {
    throw new RequestObjectError('decrypted request object is not UTF-8 text');
  }
}
