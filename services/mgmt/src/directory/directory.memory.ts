import {
  type AdminRepository,
  type ApplicationRepository,
  type ClientTypeChange,
  type CredentialsRepository,
  type DirectoryRepositories,
  DuplicateKeyError,
  type TenantRepository,
} from './directory.repository';
import type { Admin, ApiCredentials, Application, Tenant } from './model';

const copy = <T>(v: T): T => structuredClone(v);
const byCreated = <T extends { createdAt: number }>(a: T, b: T) => a.createdAt - b.createdAt;
const dropUndefined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

class MemoryTenants implements TenantRepository {
  private readonly rows = new Map<string, Tenant>();
  async create(tenant: Tenant) {
    if (this.rows.has(tenant.tenantId)) throw new DuplicateKeyError('tenantId');
    this.rows.set(tenant.tenantId, copy(tenant));
  }
  async get(tenantId: string) {
    const row = this.rows.get(tenantId);
    return row && copy(row);
  }
  async list() {
    return [...this.rows.values()].sort(byCreated).map(copy);
  }
  async update(
    tenantId: string,
    patch: Pick<Tenant, 'updatedAt'> & Partial<Pick<Tenant, 'name' | 'blockedCountries'>>,
  ) {
    const row = this.rows.get(tenantId);
    if (!row) return undefined;
    Object.assign(row, patch);
    return copy(row);
  }
  async remove(tenantId: string) {
    return this.rows.delete(tenantId);
  }
}

class MemoryApplications implements ApplicationRepository {
  private readonly rows = new Map<string, Application>();
  private key = (tenantId: string, appId: string) => `${tenantId}\u0000${appId}`;
  async create(app: Application) {
    if ([...this.rows.values()].some((a) => a.appId === app.appId)) throw new DuplicateKeyError('appId');
    if ([...this.rows.values()].some((a) => a.clientId === app.clientId))
      throw new DuplicateKeyError('clientId');
    this.rows.set(this.key(app.tenantId, app.appId), copy(dropUndefined(app)));
  }
  async get(tenantId: string, appId: string) {
    const row = this.rows.get(this.key(tenantId, appId));
    return row && copy(row);
  }
  async list(tenantId: string) {
    return [...this.rows.values()]
      .filter((a) => a.tenantId === tenantId)
      .sort(byCreated)
      .map(copy);
  }
  async update(tenantId: string, appId: string, patch: Partial<Application>) {
    const row = this.rows.get(this.key(tenantId, appId));
    if (!row) return undefined;
    const next = { ...row };
    for (const [field, value] of Object.entries(patch)) {
      if (value === undefined) delete (next as Record<string, unknown>)[field];
      else (next as Record<string, unknown>)[field] = copy(value);
    }
    this.rows.set(this.key(tenantId, appId), next);
    return copy(next);
  }
  async replaceSecret(
    tenantId: string,
    appId: string,
    secret: Pick<Application, 'clientSecretHash' | 'clientSecretSealed' | 'updatedAt'>,
  ) {
    const row = this.rows.get(this.key(tenantId, appId));
    if (!row || row.clientType !== 'confidential') return undefined;
    Object.assign(row, secret);
    return copy(row);
  }
  async setClientType(tenantId: string, appId: string, change: ClientTypeChange) {
    const row = this.rows.get(this.key(tenantId, appId));
    if (!row) return undefined;
    const { clientSecretHash: _hash, clientSecretSealed: _sealed, ...withoutSecret } = row;
    const next: Application = { ...(change.clientType === 'public' ? withoutSecret : row), ...change };
    this.rows.set(this.key(tenantId, appId), next);
    return copy(next);
  }
  async remove(tenantId: string, appId: string) {
    const row = this.rows.get(this.key(tenantId, appId));
    if (row) this.rows.delete(this.key(tenantId, appId));
    return row;
  }
  async findByClientId(clientId: string) {
    const row = [...this.rows.values()].find((a) => a.clientId === clientId);
    return row && copy(row);
  }
}

class MemoryCredentials implements CredentialsRepository {
  private readonly rows = new Map<string, ApiCredentials>();
  async create(credentials: ApiCredentials) {
    if (this.rows.has(credentials.credentialsId)) throw new DuplicateKeyError('credentialsId');
    this.rows.set(credentials.credentialsId, copy(dropUndefined(credentials)));
  }
  async get(tenantId: string, credentialsId: string) {
    const row = this.rows.get(credentialsId);
    return row && row.tenantId === tenantId ? copy(row) : undefined;
  }
  async list(tenantId: string) {
    return [...this.rows.values()]
      .filter((c) => c.tenantId === tenantId)
      .sort(byCreated)
      .map(copy);
  }
  async revoke(tenantId: string, credentialsId: string, at: number) {
    const row = this.rows.get(credentialsId);
    if (!row || row.tenantId !== tenantId || row.revokedAt !== undefined) return undefined;
    row.revokedAt = at;
    return copy(row);
  }
  async findById(credentialsId: string) {
    const row = this.rows.get(credentialsId);
    return row && copy(row);
  }
}

class MemoryAdmins implements AdminRepository {
  private readonly rows = new Map<string, Admin>();
  async touch(email: string, at: number) {
    const row = this.rows.get(email);
    if (row) row.lastSeenAt = Math.max(row.lastSeenAt, at);
    else this.rows.set(email, { email, createdAt: at, lastSeenAt: at });
  }
  async list() {
    return [...this.rows.values()].sort(byCreated).map(copy);
  }
}

/** In-memory directory for the embedded one-machine default and unit tests. */
export function memoryDirectory(): DirectoryRepositories {
  return {
    tenants: new MemoryTenants(),
    applications: new MemoryApplications(),
    credentials: new MemoryCredentials(),
    admins: new MemoryAdmins(),
  };
}
