import type { EmbeddedStore } from '@sesame/embedded-store';
import type { Connection } from '@sesame/mongo';
import type { AsyncServer } from '@sesame/platform';
import type { directory } from '@sesame/proto';
import { authenticateApiCredentials } from '../grpc/authenticate-api-credentials';
import { authenticateClient } from '../grpc/authenticate-client';
import { getBranding } from '../grpc/get-branding';
import { getClient } from '../grpc/get-client';
import type { TenantApps } from '../principal';
import { memoryDirectory } from './directory.memory';
import { mongoDirectory } from './directory.mongo';
import type { ApplicationRepository, DirectoryRepositories } from './directory.repository';
import { sqliteDirectory } from './directory.sqlite';

export type { DirectoryRepositories } from './directory.repository';
export { memoryDirectory } from './directory.memory';

/**
 * The Mongo directory when a connection is configured, else the one in the embedded default's durable engine
 * when there is one, else the in-memory one (SESAME_STORES=memory, tests).
 */
export function createDirectory(
  mongo: Connection | undefined,
  embedded?: EmbeddedStore,
): DirectoryRepositories {
  return mongo ? mongoDirectory(mongo) : embedded ? sqliteDirectory(embedded) : memoryDirectory();
}

/** The `Directory` gRPC contract over the directory. */
export function directoryGrpc(dir: DirectoryRepositories): AsyncServer<directory.DirectoryServiceServer> {
  return {
    getClient: getClient(dir.applications, dir.tenants),
    authenticateClient: authenticateClient(dir.applications),
    authenticateApiCredentials: authenticateApiCredentials(dir.credentials),
    getBranding: getBranding(dir.branding),
  };
}

/** Whether an application belongs to a tenant, for the management routes (principal.ts). */
export function tenantApps(applications: ApplicationRepository): TenantApps {
  return {
    belongsToTenant: async (tenantId, appId) => Boolean(appId && (await applications.get(tenantId, appId))),
  };
}
