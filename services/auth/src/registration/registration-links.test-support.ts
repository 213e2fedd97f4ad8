import type { Invitation } from './registration-links';

/** An invitation as send-activation makes it, created at `at`, living `ttlMs`. */
export const invitation = (at: number, ttlMs = 30 * 60_000): Invitation => ({
  flowId: '7f1c7f64-3b1e-4f2a-9c55-000000000001',
  tenantId: 'tenant-1',
  appId: 'app-1',
  clientId: 'client-1',
  appName: 'Shop',
  registrationRedirectUri: 'https://rp.example/registered',
  email: 'ada@example.com',
  scopes: ['email'],
  verifications: ['ts.svc.iac.email'],
  alias: 'ada',
  confirmedUser: true,
  locale: 'en',
  createdAt: at,
  expiresAt: at + ttlMs,
});
