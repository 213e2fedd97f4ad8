import type { grants } from '@sesame/proto';

// The platform on the real servers lives in real-platform.ts; kept importable from here for the tests that
// import it with the token fixtures.
export { type RealPlatform, startRealPlatform } from './real-platform';

/** A complete claim set as auth computes it after a passkey login. */
export function authenticatedClaims(nonce: string): grants.AuthenticatedClaims {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: '0e8f2c6a-51a3-4d8e-9b8e-6f0d7c2a9b11',
    authTime: now - 5,
    nonce,
    acr: ['ts.svc.iac.email'],
    amr: ['ts.svc.mfca'],
    svcInfo: {
      originatingDevice: {
        deviceName: 'Mac',
        osType: 'macOS',
        osVersion: '14',
        browserType: 'Safari',
        browserVersion: '17',
      },
      authenticatingDevice: {
        deviceName: 'iPhone',
        osType: 'iOS',
        osVersion: '17',
        browserType: '',
        browserVersion: '',
      },
      cappFirstLogin: now - 86_400 * 30,
    },
    email: 'person@example.com',
    emailVerified: true,
    emailUpdatedAt: now - 3600,
  };
}
