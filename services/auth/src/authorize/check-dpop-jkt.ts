import { oauthErrors as problems } from '@sesame/oauth';

// A JWK SHA-256 thumbprint (RFC 7638) is 43 base64url characters without padding.
const THUMBPRINT = /^[A-Za-z0-9_-]{43}$/;

/**
 * dpop_jkt (RFC 9449 §10): the thumbprint of the key the RP will prove at /token; the code is bound to it.
 * Anything but a SHA-256 thumbprint is invalid_request.
 */
export function checkDpopJkt(dpopJkt: string | undefined): string | undefined {
  if (dpopJkt === undefined) return undefined;
  if (!THUMBPRINT.test(dpopJkt)) {
    throw problems.invalidRequest('dpop_jkt must be a JWK SHA-256 thumbprint (43 base64url characters)');
  }
  return dpopJkt;
}
