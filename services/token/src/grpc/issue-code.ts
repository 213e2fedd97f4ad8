import { grants } from '@sesame/proto';
import { z } from 'zod';
import type { TokenDeps } from '../deps';
import { issuedClaimsRequest, requestedClaimsOf } from '../grants/requested-claims';
import { requireClaims, validate } from './validate';

/** IssueCode's request fields (its claims: validate.ts; its claims request: issuedClaimsRequest). */
export const requestSchema = z
  .object({
    tenantId: z.string().min(1),
    appId: z.string().min(1),
    clientId: z.string().min(1),
    redirectUri: z.string().min(1),
    scope: z.string(),
    codeChallenge: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a BASE64URL SHA-256 (43 characters)')
      .or(z.literal('')),
    codeChallengeMethod: z.enum(['S256', '']),
    flowId: z.string(),
    dpopJkt: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a JWK SHA-256 thumbprint (43 base64url characters)')
      .or(z.literal('')),
  })
  .refine((r) => (r.codeChallenge === '') === (r.codeChallengeMethod === ''), {
    message: 'code_challenge and code_challenge_method (S256) go together',
    path: ['codeChallengeMethod'],
  });

const BASE64URL_SHA256 = /^[A-Za-z0-9_-]{43}$/;
const plainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
const nonEmpty = (v: unknown) => typeof v === 'string' && v !== '';
const names = (v: unknown, min: number) => Array.isArray(v) && v.length >= min && v.every(nonEmpty);
const device = (d: unknown) =>
  plainObject(d) &&
  typeof d.deviceName === 'string' &&
  typeof d.osType === 'string' &&
  typeof d.osVersion === 'string';

/**
 * The common IssueCode (a sign-in's, no claims parameter) checked by hand: true only when requestSchema,
 * authenticatedClaimsSchema and issuedClaimsRequest all accept it and it names no requested claims. Anything
 * else (a claims request, an object that is no plain `{}`, any doubt) goes to zod, which words the error.
 * The differential test (issue-code-check.test.ts) holds it to that.
 */
export function plainlyValidIssueCode(r: unknown): boolean {
  if (!plainObject(r)) return false;
  const c = r.claims;
  return (
    nonEmpty(r.tenantId) &&
    nonEmpty(r.appId) &&
    nonEmpty(r.clientId) &&
    nonEmpty(r.redirectUri) &&
    typeof r.scope === 'string' &&
    typeof r.flowId === 'string' &&
    (r.codeChallenge === ''
      ? r.codeChallengeMethod === ''
      : typeof r.codeChallenge === 'string' &&
        BASE64URL_SHA256.test(r.codeChallenge) &&
        r.codeChallengeMethod === 'S256') &&
    (r.dpopJkt === '' || (typeof r.dpopJkt === 'string' && BASE64URL_SHA256.test(r.dpopJkt))) &&
    r.requestedClaims === undefined &&
    r.requestedClaimValues === undefined &&
    plainObject(c) &&
    nonEmpty(c.sub) &&
    Number.isInteger(c.authTime) &&
    (c.authTime as number) > 0 &&
    names(c.acr, 0) &&
    names(c.amr, 1) &&
    plainObject(c.svcInfo) &&
    device(c.svcInfo.originatingDevice) &&
    device(c.svcInfo.authenticatingDevice)
  );
}

/** What IssueCode stores from a request, after validation (zod's, or the plain check's for the common one). */
function checkedIssueCode(request: grants.IssueCodeRequest) {
  if (plainlyValidIssueCode(request))
    return { valid: request, claims: request.claims!, requestedClaims: undefined };
  return {
    valid: validate(requestSchema, request, 'IssueCodeRequest'),
    claims: requireClaims(request.claims),
    requestedClaims: requestedClaimsOf(validate(issuedClaimsRequest, request, 'IssueCodeRequest')),
  };
}

/**
 * Grants.IssueCode: stores the authenticated grant auth computed, with the standard claims the claims
 * parameter asked for, and returns a single-use code.
 */
export function issueCode(deps: TokenDeps) {
  return async (request: grants.IssueCodeRequest): Promise<grants.IssueCodeResponse> => {
    const { valid, claims, requestedClaims } = checkedIssueCode(request);
    const code = await deps.codes.issue({
      tenantId: valid.tenantId,
      appId: valid.appId,
      clientId: valid.clientId,
      redirectUri: valid.redirectUri,
      scope: valid.scope,
      codeChallenge: valid.codeChallenge,
      flowId: valid.flowId,
      claims,
      ...(requestedClaims ? { requestedClaims } : {}),
      ...(request.login ? { login: grants.LoginRef.fromPartial(request.login) } : {}),
      ...(valid.dpopJkt ? { dpopJkt: valid.dpopJkt } : {}),
      issuedAt: deps.clock.now(),
    });
    return { code, expiresIn: deps.config.SESAME_CODE_TTL_S };
  };
}
