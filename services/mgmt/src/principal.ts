import { MgmtError } from '@sesame/platform';
import type { Response } from 'express';

/** Who is calling a management endpoint: resolved from the bearer token by the mgmt auth middleware. */
export interface MgmtPrincipal {
  tenantId: string;
  credentialsId: string;
}

/** Set by the bearer-token middleware; routes mounted behind it can rely on it. */
export function principalOf(res: Response): MgmtPrincipal {
  const principal = res.locals.principal as MgmtPrincipal | undefined;
  if (!principal) throw new Error('management route mounted without the bearer-token middleware');
  return principal;
}

/** The body's or query's credentialsId must be the one the token was issued to (403 otherwise). */
export function assertSameCredentials(principal: MgmtPrincipal, credentialsId: string): void {
  if (principal.credentialsId !== credentialsId) {
    throw new MgmtError(403, 'forbidden', 'credentialsId does not match the access token');
  }
}

/** Looks up whether an application belongs to a tenant (owned by the directory). */
export interface TenantApps {
  belongsToTenant(tenantId: string, appId: string): Promise<boolean>;
}

/** An app of another tenant is answered exactly like a missing one: 403, never revealing that it exists. */
export async function assertAppOfTenant(
  apps: TenantApps,
  principal: MgmtPrincipal,
  appId: string,
): Promise<void> {
  if (!(await apps.belongsToTenant(principal.tenantId, appId))) {
    throw new MgmtError(403, 'forbidden', 'the application is not accessible with these credentials');
  }
}
