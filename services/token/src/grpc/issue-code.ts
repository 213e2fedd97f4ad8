import { grants } from '@sesame/proto';
import { z } from 'zod';
import type { TokenDeps } from '../deps';
import { issuedClaimsRequest, requestedClaimsOf } from '../grants/requested-claims';
import { requireClaims, validate } from './validate';

const requestSchema = z
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

/**
 * Grants.IssueCode: stores the authenticated grant auth computed, with the standard claims the claims
 * parameter asked for, and returns a single-use code.
 */
export function issueCode(deps: TokenDeps) {
  return async (request: grants.IssueCodeRequest): Promise<grants.IssueCodeResponse> => {
    const valid = validate(requestSchema, request, 'IssueCodeRequest');
    const claims = requireClaims(request.claims);
    const requestedClaims = requestedClaimsOf(validate(issuedClaimsRequest, request, 'IssueCodeRequest'));
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
