import { memoryBranding } from '../branding/memory';
import type {
  AdminRepository,
  ApplicationRepository,
  ClientTypeChange,
  CredentialsRepository,
  DirectoryRepositories,
  TenantRepository,
} from './directory.repository';
import { DuplicateKeyError } from './directory.repository';
import { MemoryRows, copy } from './memory-rows';
import type { Admin, ApiCredentials, Application, Tenant } from './model';

const dropUndefined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

class MemoryTenants implements TenantRepository {
  private readonly rows = new MemoryRows<Tenant>();
  async create(tenant: Tenant) {
    this.rows.insert(tenant.tenantId, tenant, 'tenantId');
  }
  async get(tenantId: string) {
    return this.rows.get(tenantId);
  }
  async list() {
    return this.rows.list();
  }
  async update(
    tenantId: string,
    patch: Pick<Tenant, 'updatedAt'> & Partial<Pick<Tenant, 'name' | 'blockedCountries'>>,
  ) {
    const row = this.rows.live(tenantId);
    if (!row) return undefined;
    Object.assign(row, patch);
    return copy(row);
  }
  async remove(tenantId: string) {
    return this.rows.delete(tenantId);
  }
}

class MemoryApplications implements ApplicationRepository {
  private readonly rows = new MemoryRows<Application>();
  private key = (tenantId: string, appId: string) => `${tenantId}\u0000${appId}`;
  async create(app: Application) {
    if (this.rows.values().some((a) => a.appId === app.appId)) throw new DuplicateKeyError('appId');
    if (this.rows.values().some((a) => a.clientId === app.clientId)) throw new DuplicateKeyError('clientId');
    this.rows.insert(this.key(app.tenantId, app.appId), dropUndefined(app), 'appId');
  }
  async get(tenantId: string, appId: string) {
    return this.rows.get(this.key(tenantId, appId));
  }
  async list(tenantId: string) {
    return this.rows.list((a) => a.tenantId === tenantId);
  }
  async update(tenantId: string, appId: string, patch: Partial<Application>) {
    const row = this.rows.live(this.key(tenantId, appId));
    if (!row) return undefined;
    const next = { ...row };
    for (const [field, value] of Object.entries(patch)) {
      if (value === undefined) delete (next as Record<string, unknown>)[field];
      else (next as Record<string, unknown>)[field] = copy(value);
    }
    this.rows.put(this.key(tenantId, appId), next);
    return copy(next);
  }
  async replaceSecret(
    tenantId: string,
    appId: string,
    secret: Pick<Application, 'clientSecretHash' | 'clientSecretSealed' | 'updatedAt'>,
  ) {
    const row = this.rows.live(this.key(tenantId, appId));
    if (!row || row.clientType !== 'confidential') return undefined;
    Object.assign(row, secret);
    return copy(row);
  }
  async setClientType(tenantId: string, appId: string, change: ClientTypeChange) {
    const row = this.rows.live(this.key(tenantId, appId));
    if (!row) return undefined;
    const { clientSecretHash: _hash, clientSecretSealed: _sealed, ...withoutSecret } = row;
    const next: Application = { ...(change.clientType === 'public' ? withoutSecret : row), ...change };
    this.rows.put(this.key(tenantId, appId), next);
    return copy(next);
  }
  async remove(tenantId: string, appId: string) {
    const row = this.rows.live(this.key(tenantId, appId));
    if (row) this.rows.delete(this.key(tenantId, appId));
    return row;
  }
  async findByClientId(clientId: string) {
    return this.rows.find((a) => a.clientId === clientId);
  }
}

class MemoryCredentials implements CredentialsRepository {
  private readonly rows = new MemoryRows<ApiCredentials>();
  async create(credentials: ApiCredentials) {
    this.rows.insert(credentials.credentialsId, dropUndefined(credentials), 'credentialsId');
  }
  async get(tenantId: string, credentialsId: string) {
    const row = this.rows.get(credentialsId);
    return row && row.tenantId === tenantId ? row : undefined;
  }
  async list(tenantId: string) {
    return this.rows.list((c) => c.tenantId === tenantId);
  }
  async revoke(tenantId: string, credentialsId: string, at: number) {
    const row = this.rows.live(credentialsId);
    if (!row || row.tenantId !== tenantId || row.revokedAt !== undefined) return undefined;
    row.revokedAt = at;
    return copy(row);
  }
  async findById(credentialsId: string) {
    return this.rows.get(credentialsId);
  }
}

class MemoryAdmins implements AdminRepository {
  private readonly rows = new MemoryRows<Admin>();
  async touch(email: string, at: number) {
    const row = this.rows.live(email);
    if (row) row.lastSeenAt = Math.max(row.lastSeenAt, at);
    else this.rows.put(email, { email, createdAt: at, lastSeenAt: at });
  }
  async list() {
    return this.rows.list();
  }
}

/** In-memory directory for the embedded one-machine default and unit tests. */
export function memoryDirectory(): DirectoryRepositories {
  return {
    tenants: new MemoryTenants(),
    applications: new MemoryApplications(),
    credentials: new MemoryCredentials(),
    admins: new MemoryAdmins(),
    branding: memoryBranding(),
  };
}
