import type { BrandingRepository } from '../branding/repository';
import type { Admin, ApiCredentials, Application, ApplicationPatch, Tenant } from './model';

/**
 * Ports of the directory. Tenant id in every method, except the two lookups by a globally unique key that
 * authenticate a caller who has not yet proven a tenant (client_id at /token, credentialsId at /token).
 */
export interface TenantRepository {
  /** Rejects with DuplicateKeyError when the tenantId exists. */
  create(tenant: Tenant): Promise<void>;
  get(tenantId: string): Promise<Tenant | undefined>;
  /** Oldest first. */
  list(): Promise<Tenant[]>;
  update(
    tenantId: string,
    patch: Pick<Tenant, 'updatedAt'> & Partial<Pick<Tenant, 'name' | 'blockedCountries'>>,
  ): Promise<Tenant | undefined>;
  remove(tenantId: string): Promise<boolean>;
}

/** What setClientType writes: a confidential client always has a secret, a public one never. */
export type ClientTypeChange =
  | ({ clientType: 'confidential'; updatedAt: number } & Required<
      Pick<Application, 'clientSecretHash' | 'clientSecretSealed'>
    >)
  | { clientType: 'public'; updatedAt: number };

export interface ApplicationRepository {
  /** Rejects with DuplicateKeyError when the appId or clientId exists. */
  create(app: Application): Promise<void>;
  get(tenantId: string, appId: string): Promise<Application | undefined>;
  /** Oldest first. */
  list(tenantId: string): Promise<Application[]>;
  update(tenantId: string, appId: string, patch: ApplicationPatch): Promise<Application | undefined>;
  /** Replaces a confidential client's secret (hash and sealed copy) within the tenant; undefined when none. */
  replaceSecret(
    tenantId: string,
    appId: string,
    secret: Required<Pick<Application, 'clientSecretHash' | 'clientSecretSealed'>> & { updatedAt: number },
  ): Promise<Application | undefined>;
  /**
   * Switches the client type within the tenant: to confidential with a new secret (hash and sealed copy),
   * or to public, which removes the secret's hash and sealed copy. Undefined when there is no such app.
   */
  setClientType(tenantId: string, appId: string, change: ClientTypeChange): Promise<Application | undefined>;
  /** Returns the removed application. */
  remove(tenantId: string, appId: string): Promise<Application | undefined>;
  /** By the globally unique client_id: the caller is a client proving who it is. */
  findByClientId(clientId: string): Promise<Application | undefined>;
}

export interface CredentialsRepository {
  create(credentials: ApiCredentials): Promise<void>;
  get(tenantId: string, credentialsId: string): Promise<ApiCredentials | undefined>;
  /** Oldest first, revoked ones included. */
  list(tenantId: string): Promise<ApiCredentials[]>;
  /** Sets revokedAt once; undefined when there is no such credential or it was already revoked. */
  revoke(tenantId: string, credentialsId: string, at: number): Promise<ApiCredentials | undefined>;
  /** By the globally unique credentialsId: the caller is proving who it is. */
  findById(credentialsId: string): Promise<ApiCredentials | undefined>;
}

export interface AdminRepository {
  /** Records an admin on first sight and when it was last seen. */
  touch(email: string, at: number): Promise<void>;
  list(): Promise<Admin[]>;
}

export interface DirectoryRepositories {
  tenants: TenantRepository;
  applications: ApplicationRepository;
  credentials: CredentialsRepository;
  admins: AdminRepository;
  /** Pages and mail branding of tenants and their applications, and their mail templates. */
  branding: BrandingRepository;
}

/** A record with this unique key exists already. */
export class DuplicateKeyError extends Error {
  constructor(what: string) {
    super(`duplicate ${what}`);
    this.name = 'DuplicateKeyError';
  }
}
