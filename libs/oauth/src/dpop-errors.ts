import { OAuthError } from '@sesame/platform';
import { DPOP_SIGNING_ALGS } from './vocabulary';

const REALM = 'sesame';
const quoted = (text: string) => text.replace(/["\\]/g, "'");

/**
 * A DPoP refusal (RFC 9449), whichever endpoint it happens at: `invalid_dpop_proof`, or `use_dpop_nonce`
 * with the nonce to use. The endpoint turns it into its own answer (tokenEndpointDpopError,
 * resourceDpopError).
 */
export class DpopProblem extends Error {
  constructor(
    readonly code: 'invalid_dpop_proof' | 'use_dpop_nonce',
    readonly description: string,
    readonly nonce?: string,
  ) {
    super(description);
    this.name = 'DpopProblem';
  }
}

const nonceHeader = (p: DpopProblem): Record<string, string> => (p.nonce ? { 'DPoP-Nonce': p.nonce } : {});

/** At /token (and /par): 400 with the code in the body, and DPoP-Nonce for use_dpop_nonce (RFC 9449 §5, §8). */
export function tokenEndpointDpopError(problem: DpopProblem): OAuthError {
  const err = new OAuthError(problem.code, problem.description, 400);
  err.headers = nonceHeader(problem);
  return err;
}

/** The DPoP challenge a protected resource answers with (RFC 9449 §7.1), with the algs it accepts. */
export function dpopChallenge(error?: { code: string; description: string }): string {
  const algs = `algs="${DPOP_SIGNING_ALGS.join(' ')}"`;
  if (!error) return `DPoP realm="${REALM}", ${algs}`;
  return `DPoP realm="${REALM}", error="${error.code}", error_description="${quoted(error.description)}", ${algs}`;
}

/** At a protected resource (/userinfo): 401 with a DPoP challenge naming the error (RFC 9449 §7.1, §9). */
export function resourceDpopError(problem: DpopProblem): OAuthError {
  const err = new OAuthError(problem.code, problem.description, 401);
  err.headers = { 'WWW-Authenticate': dpopChallenge(problem), ...nonceHeader(problem) };
  return err;
}

/**
 * A protected resource refusing the access token itself under the DPoP scheme (RFC 9449 §7.1): a bound
 * token sent as Bearer, a DPoP token without a proof, a proof by another key. 401 invalid_token with the
 * DPoP challenge, so a client learns which scheme the token needs.
 */
export function dpopInvalidToken(description: string): OAuthError {
  const err = new OAuthError('invalid_token', description, 401);
  err.headers = { 'WWW-Authenticate': dpopChallenge({ code: 'invalid_token', description }) };
  return err;
}
