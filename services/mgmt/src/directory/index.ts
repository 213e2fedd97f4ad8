import type { EmbeddedStore } from '@sesame/embedded-store';
import type { Connection } from '@sesame/mongo';
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

/** Whether an application belongs to a tenant, for the management routes (principal.ts). */
export function tenantApps(applications: ApplicationRepository): TenantApps {
  return {
    belongsToTenant: async (tenantId, appId) => Boolean(appId && (await applications.get(tenantId, appId))),
  };
}
