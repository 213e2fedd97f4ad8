import { users } from '@sesame/proto';
import type { Invitation } from '../journeys/registration/links';

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

const { ACTIVATION_ALIAS_TYPE_ALIAS: ALIAS } = users.ActivationAliasType;

/** A CreateActivationLink request as mgmt sends it for the test client of hosted-test-client.ts (this folder). */
export const activationRequest = (
  over: Partial<users.CreateActivationLinkRequest> = {},
): users.CreateActivationLinkRequest =>
  users.CreateActivationLinkRequest.fromPartial({
    tenantId: 'tenant-1',
    appId: 'app-1',
    clientId: 'client-1',
    appName: 'Shop',
    registrationRedirectUri: 'https://rp.example/registered',
    userEmail: 'ada@example.com',
    scopes: ['email'],
    verifications: ['ts.svc.iac.email'],
    aliasType: ALIAS,
    aliasValue: 'ada-1',
    confirmedUser: true,
    clientIp: '203.0.113.9',
    ...over,
  });
