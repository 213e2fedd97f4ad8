// Test support only: a complete claim set as auth computes it.
import type { grants } from '@sesame/proto';

export function sampleClaims(
  overrides: Partial<grants.AuthenticatedClaims> = {},
): grants.AuthenticatedClaims {
  return {
    sub: '6f1c2b9e-8a57-4a43-9d3a-2b7f7f7e1a11',
    authTime: 1_742_032_800,
    nonce: 'n-0S6_WzA2Mj',
    acr: ['ts.svc.app_bound_cred', 'ts.svc.iac.email'],
    amr: ['ts.svc.mfca'],
    svcInfo: {
      originatingDevice: {
        deviceName: 'Apple Macintosh',
        osType: 'macOS',
        osVersion: '14.4',
        browserType: 'Chrome',
        browserVersion: '123.0',
      },
      authenticatingDevice: {
        deviceName: 'Apple iPhone 15',
        osType: 'iOS',
        osVersion: '17.4',
        browserType: '',
        browserVersion: '',
      },
      cappLastLogin: 1_741_000_000,
      cappFirstLogin: 1_700_000_000,
    },
    ...overrides,
  };
}
