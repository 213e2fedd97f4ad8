import {
  REQUEST_OBJECT_ENCRYPTION_ALGS,
  REQUEST_OBJECT_SIGNED_ALGS,
  oauthErrors as problems,
} from '@sesame/oauth';
import type { directory } from '@sesame/proto';
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

/** A request object's claims, and whether a signature by the client's keys vouches for them. */
interface ReadObject {
  payload: Record<string, unknown>;
  signed: boolean;
}

function readJwtHeaderAlg(jwt: string): unknown {
  try {
    return decodeProtectedHeader(jwt).alg;
  } catch {
    throw refuse('request has no readable JWT header');
  }
}

function decodeClaims(jwt: string): Record<string, unknown> {
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
 * The client whose keys and rules apply: the query's client_id, else the object's own (checkAgreement
 * refuses the two disagreeing). Undefined when it names no client: redirect-target checks answer that.
 */
async function clientOf(
  query: AuthorizeParams,
  claims: Record<string, unknown>,
  deps: Pick<AuthorizeDeps, 'getClient'>,
): Promise<directory.Client | undefined> {
  const id = query.values.client_id ?? (typeof claims.client_id === 'string' ? claims.client_id : undefined);
  return id ? deps.getClient(id) : undefined;
}

/** An unsigned object (alg none, or a JSON claims set inside a JWE) is refused when the app requires a signature. */
async function checkUnsignedAllowed(
  query: AuthorizeParams,
  claims: Record<string, unknown>,
  deps: Pick<AuthorizeDeps, 'getClient'>,
): Promise<void> {
  const required = (await clientOf(query, claims, deps))?.requestObjectSigningAlg;
  if (required) throw refuse(`this client's request objects must be signed with ${required}`);
}

const hasKeys = (client: directory.Client) => client.jwks !== '' || client.jwksUri !== '';

/**
 * A compact JWT, top level or inside a JWE. alg none (with an empty signature) is read as is; RS256, PS256
 * and ES256 are verified with the client's keys (RFC 9101). Inside a JWE, a JWS of a client that registered
 * no keys (and requires no alg) is read unverified as before JAR: the encryption to our key gives its claims
 * the trust of query parameters, and no more.
 */
async function readJwt(
  jwt: string,
  encrypted: boolean,
  query: AuthorizeParams,
  deps: RequestObjectDeps,
): Promise<ReadObject> {
  if (jwt.length > MAX_JWE_LENGTH) throw refuse(`request must be at most ${MAX_JWE_LENGTH} characters`);
  const alg = readJwtHeaderAlg(jwt);
  if (typeof alg !== 'string')
    throw refuse(encrypted ? 'decrypted request is neither a JSON object nor a JWT' : 'request has no alg');
  if (alg === 'none') {
    if (!jwt.endsWith('.')) throw refuse('an unsecured request object (alg none) must have no signature');
    const payload = decodeClaims(jwt);
    await checkUnsignedAllowed(query, payload, deps);
    return { payload, signed: false };
  }
  if (!(REQUEST_OBJECT_SIGNED_ALGS as readonly unknown[]).includes(alg)) {
    throw refuse(`request object must be signed with ${REQUEST_OBJECT_SIGNED_ALGS.join(', ')} or unsecured`);
  }
  const claims = decodeClaims(jwt);
  const client = await clientOf(query, claims, deps);
  if (!client) throw refuse('the request object names no registered client whose keys could verify it');
  if (encrypted && !hasKeys(client) && !client.requestObjectSigningAlg)
    return { payload: claims, signed: false };
  return { payload: await deps.verifySignedRequestObject(client, jwt), signed: true };
}

async function readEncrypted(
  jwe: string,
  query: AuthorizeParams,
  deps: RequestObjectDeps,
): Promise<ReadObject> {
  checkJweHeader(jwe);
  const text = (await decrypt(jwe, deps)).trim();
  if (COMPACT_JWT.test(text)) return readJwt(text, true, query, deps);
  let payload: unknown;
  try {
    payload = text.startsWith('{') ? JSON.parse(text) : undefined;
  } catch {
    // answered below
  }
  if (!isObject(payload)) throw refuse('decrypted request is neither a JSON object nor a JWT');
  await checkUnsignedAllowed(query, payload, deps);
  return { payload, signed: false };
}

/**
 * Request object members as parameter strings; claims may be an object, max_age a number. Other members
 * (iss, aud, exp, jti, ...) are ignored like unknown query parameters once the signature checks used them.
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

type RequestObjectDeps = Pick<
  AuthorizeDeps,
  'decryptRequestObject' | 'getClient' | 'verifySignedRequestObject'
>;

/**
 * Applies `request` (spec 4.2; OIDC Core 6; RFC 9101). client_id / response_type must agree where both are
 * given. An unsigned object's parameters take precedence over the query's (OIDC Core 6.3); a signed one's
 * are the only ones used besides client_id (RFC 9101 §5). `request_uri` is refused: fetching URLs for
 * callers is not offered (PAR's own request_uri is handled before). A compact JWE's header is checked before
 * the key service is asked to decrypt it.
 */
export async function applyRequestObject(
  query: AuthorizeParams,
  deps: RequestObjectDeps,
): Promise<AuthorizeParams> {
  if (query.repeated.has('request_uri') || query.values.request_uri !== undefined) {
    throw problems.requestUriNotSupported('request_uri is not supported; send the request object in request');
  }
  if (query.repeated.has('request')) throw problems.invalidRequest('request must be a single value');
  const object = query.values.request;
  if (object === undefined) return query;
  const { payload, signed } = COMPACT_JWT.test(object)
    ? await readJwt(object, false, query, deps)
    : await readEncrypted(object, query, deps);
  const fromObject = toParams(payload);
  checkAgreement(query, fromObject);
  if (signed) {
    const repeated = new Set<ParamName>(query.repeated.has('client_id') ? ['client_id'] : []);
    return { values: { client_id: query.values.client_id, ...fromObject }, repeated };
  }
  const { request: _request, ...values } = { ...query.values, ...fromObject };
  return { values, repeated: query.repeated };
}
