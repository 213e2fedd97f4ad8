import {
  REQUEST_OBJECT_ENCRYPTION_ALGS,
  REQUEST_OBJECT_SIGNING_ALGS,
  oauthErrors as problems,
} from '@sesame/oauth';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { type ParamName, isParamName } from './param-names';
import type { AuthorizeParams } from './read-params';
import type { AuthorizeDeps } from './types';

/** Thrown by AuthorizeDeps.decryptRequestObject when the key service refuses the JWE (not when it is down). */
export class UndecryptableRequestObject extends Error {
  constructor(message = 'request object could not be decrypted') {
    super(message);
    this.name = 'UndecryptableRequestObject';
  }
}

const MAX_JWE_LENGTH = 64 * 1024;
const COMPACT_JWE = /^[\w-]+\.[\w-]*\.[\w-]*\.[\w-]+\.[\w-]*$/;
const COMPACT_JWT = /^[\w-]+\.[\w-]+\.[\w-]*$/;
// The enc key of /jwks is RSA-OAEP-256 (spec 2.3); dir and RSA1_5 (padding oracle) are refused by name.
const [KEY_MANAGEMENT_ALG] = REQUEST_OBJECT_ENCRYPTION_ALGS;
// Unencrypted request objects: unsecured ones only (readUnsecured).
const [REQUEST_OBJECT_SIGNING_ALG] = REQUEST_OBJECT_SIGNING_ALGS;

const refuse = (description: string) => problems.invalidRequestObject(description);

function checkJweHeader(jwe: string): void {
  if (jwe.length > MAX_JWE_LENGTH) throw refuse(`request must be at most ${MAX_JWE_LENGTH} characters`);
  if (!COMPACT_JWE.test(jwe)) throw refuse('request must be a compact JWE (five base64url parts)');
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(jwe).alg;
  } catch {
    throw refuse('request has no readable JWE protected header');
  }
  if (alg !== KEY_MANAGEMENT_ALG) {
    throw refuse(`request must be encrypted with ${KEY_MANAGEMENT_ALG} to the enc key of /jwks`);
  }
}

async function decrypt(jwe: string, deps: Pick<AuthorizeDeps, 'decryptRequestObject'>): Promise<string> {
  let plaintext: Uint8Array;
  try {
    plaintext = await deps.decryptRequestObject(jwe);
  } catch (err) {
    if (err instanceof UndecryptableRequestObject)
      throw refuse('request could not be decrypted with the enc key of /jwks');
    throw err;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(plaintext);
  } catch {
    throw refuse('decrypted request is not UTF-8 text');
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The decrypted payload: a JSON claims set, or a nested JWT (JWS, or unsecured with alg none) whose payload
 * is taken as is. Clients register no keys, so a nested signature cannot be verified: its claims get the
 * same trust as query parameters, which is all the encryption to our key gives them anyway.
 */
function readPayload(plaintext: string): Record<string, unknown> {
  const text = plaintext.trim();
  let payload: unknown;
  try {
    payload = text.startsWith('{') ? JSON.parse(text) : COMPACT_JWT.test(text) ? decodeJwt(text) : undefined;
  } catch {
    throw refuse('decrypted request is neither a JSON object nor a JWT');
  }
  if (!isObject(payload)) throw refuse('decrypted request is neither a JSON object nor a JWT');
  return payload;
}

/**
 * Request object members as parameter strings; claims may be an object, max_age a number.
 * Other members (iss, aud, exp, jti, ...) are ignored like unknown query parameters: without a client key
 * they prove nothing.
 */
function toParams(payload: Record<string, unknown>): Partial<Record<ParamName, string>> {
  const params: Partial<Record<ParamName, string>> = {};
  for (const [name, value] of Object.entries(payload)) {
    if (!isParamName(name)) continue;
    if (name === 'request' || name === 'request_uri') throw refuse(`request object must not contain ${name}`);
    if (name === 'claims' && isObject(value)) params.claims = JSON.stringify(value);
    else if (name === 'max_age' && typeof value === 'number') params.max_age = String(value);
    else if (typeof value !== 'string') throw refuse(`request object member ${name} must be a string`);
    else if (value !== '') params[name] = value;
  }
  return params;
}

function checkAgreement(query: AuthorizeParams, fromObject: Partial<Record<ParamName, string>>): void {
  for (const name of ['client_id', 'response_type'] as const) {
    const inQuery = query.values[name];
    const inObject = fromObject[name];
    if (inQuery !== undefined && inObject !== undefined && inQuery !== inObject) {
      throw refuse(`${name} in the request object differs from the ${name} parameter`);
    }
  }
}

async function readEncrypted(
  jwe: string,
  deps: Pick<AuthorizeDeps, 'decryptRequestObject'>,
): Promise<Record<string, unknown>> {
  checkJweHeader(jwe);
  return readPayload(await decrypt(jwe, deps));
}

/**
 * An unencrypted request object (OIDC Core 6.1): processed when unsecured (alg none, empty signature), its
 * members with the same trust as query parameters. A signed one is refused: Sesame holds no client keys to
 * verify it, and an RP that signs expects the signature checked.
 */
function readUnsecured(jwt: string): Record<string, unknown> {
  if (jwt.length > MAX_JWE_LENGTH) throw refuse(`request must be at most ${MAX_JWE_LENGTH} characters`);
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(jwt).alg;
  } catch {
    throw refuse('request has no readable JWT header');
  }
  if (alg !== REQUEST_OBJECT_SIGNING_ALG || !jwt.endsWith('.'))
    throw refuse('a signed request object cannot be verified: send it unsecured (alg none) or as a JWE');
  let payload: unknown;
  try {
    payload = decodeJwt(jwt);
  } catch {
    throw refuse('request is not a readable JWT');
  }
  if (!isObject(payload)) throw refuse('request is not a readable JWT');
  return payload;
}

/**
 * Applies `request` (spec 4.2; OIDC Core 6): its parameters take precedence over the query's (6.3), and
 * client_id / response_type must agree where both are given. `request_uri` is refused: fetching URLs for
 * callers is not offered. A compact JWE's header is checked before the key service is asked to decrypt it; an
 * unsecured JWT (alg none) is read as it is.
 */
export async function applyRequestObject(
  query: AuthorizeParams,
  deps: Pick<AuthorizeDeps, 'decryptRequestObject'>,
): Promise<AuthorizeParams> {
  if (query.repeated.has('request_uri') || query.values.request_uri !== undefined) {
    throw problems.requestUriNotSupported('request_uri is not supported; send the request object in request');
  }
  if (query.repeated.has('request')) throw problems.invalidRequest('request must be a single value');
  const object = query.values.request;
  if (object === undefined) return query;
  const fromObject = toParams(
    COMPACT_JWT.test(object) ? readUnsecured(object) : await readEncrypted(object, deps),
  );
  checkAgreement(query, fromObject);
  const { request: _request, ...values } = { ...query.values, ...fromObject };
  return { values, repeated: query.repeated };
}
