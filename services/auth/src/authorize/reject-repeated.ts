import { oauthErrors as problems } from '@sesame/oauth';
import type { AuthorizeParams } from './read-params';

/** A parameter given more than once is ambiguous (RFC 6749 §3.1: MUST NOT be included more than once). */
export function rejectRepeated(params: AuthorizeParams): void {
  const [first] = params.repeated;
  if (first !== undefined) throw problems.invalidRequest(`${first} must be a single value`);
}
