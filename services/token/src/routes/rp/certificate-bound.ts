import { type PresentedCertificate, certificateThumbprint, oauthErrors } from '@sesame/oauth';
import { safeEqual } from '@sesame/platform';
import type { AccessTokenGrant } from '../../grants/types';

/**
 * A certificate-bound access token (RFC 8705 3) is accepted only with the certificate it is bound to: without
 * one, or with another, it is 401 invalid_token, as a stolen bearer token replayed from elsewhere would be.
 * A token bound to nothing passes.
 */
export function checkCertificateBinding(
  grant: Pick<AccessTokenGrant, 'certificateThumbprint'>,
  presented: PresentedCertificate | undefined,
): void {
  if (!grant.certificateThumbprint) return;
  if (!presented || !safeEqual(certificateThumbprint(presented.cert), grant.certificateThumbprint))
    throw oauthErrors.invalidToken('the access token is bound to another client certificate');
}

/** The cnf member of an introspection answer (RFC 8705 3.2) for a bound token; empty for a bearer token. */
export const certificateConfirmation = (grant: Pick<AccessTokenGrant, 'certificateThumbprint'>) =>
  grant.certificateThumbprint ? { cnf: { 'x5t#S256': grant.certificateThumbprint } } : {};
