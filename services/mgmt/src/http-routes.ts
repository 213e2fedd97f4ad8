import type { KeyValueStore } from '@sesame/kv';
import { type Clock, type PromiseClient, prefixGate, strictJson } from '@sesame/platform';
import type { activitylogs } from '@sesame/proto';
import express from 'express';
import type { BreakGlass } from './admins/break-glass';
import { invitationMailLimiter } from './admins/invitation-mail-limit';
import type { AdminsRepositories } from './admins/repository';
import { consoleRouter } from './console/router';
import type { DirectoryRepositories } from './directory/directory.repository';
import { tenantApps } from './directory/index';
import { CONSOLE_CLIENT_ID, ensureSystemTenant } from './directory/system-tenant';
import type { AdminEventPublisher } from './events/admin-events';
import { mgmtErrors, noStore, notFound } from './http/mgmt-errors';
import { buildOpenApiDocument } from './openapi/document';
import type { GrantsPeer, KeysPeer, UsersPeer } from './peers';
import { createActivityLogsRoutes } from './routes/activity-logs';
import { createAdminLogsRoutes } from './routes/admin-logs';
import { adminAuth } from './routes/admin/admin-auth';
import type { AdminKeyThrottle } from './routes/admin/admin-key-throttle';
import { administratorsRoutes } from './routes/admin/administrators-routes';
import { attemptsRoutes } from './routes/admin/attempts-routes';
import { blockDeviceRoute } from './routes/admin/block-device-route';
import { blockedCountriesRoutes } from './routes/admin/blocked-countries-routes';
import { brandingRoutes } from './routes/admin/branding';
import { createApplicationRoute } from './routes/admin/create-application-route';
import { createCredentialsRoute } from './routes/admin/create-credentials-route';
import { createTenantRoute } from './routes/admin/create-tenant';
import { getApplicationRoute } from './routes/admin/get-application';
import { getTenantRoute } from './routes/admin/get-tenant';
import { invitationsRoutes } from './routes/admin/invitations';
import { inviteUserRoute } from './routes/admin/invite-user';
import { listApplicationsRoute } from './routes/admin/list-applications';
import { listCredentialsRoute } from './routes/admin/list-credentials';
import { listTenantsRoute } from './routes/admin/list-tenants';
import { peopleRoutes } from './routes/admin/people-routes';
import { personAccessRoutes } from './routes/admin/person-access-routes';
import { personalTokensRoutes } from './routes/admin/personal-tokens-routes';
import { removeApplicationRoute } from './routes/admin/remove-application-route';
import { removeTenantRoute } from './routes/admin/remove-tenant';
import { revokeCredentialsRoute } from './routes/admin/revoke-credentials-route';
import { rotateClientSecretRoute } from './routes/admin/rotate-client-secret-route';
import { rotateKeysRoute } from './routes/admin/rotate-keys';
import { supportRoutes } from './routes/admin/support';
import { updateApplicationRoute } from './routes/admin/update-application-route';
import { updateTenantRoute } from './routes/admin/update-tenant-route';
import { interactiveInitRoute } from './routes/interactive/init-route';
import { bearerAuth } from './routes/mgmt/bearer-auth';
import { removeUserRoute } from './routes/mgmt/remove-user';
import { sendActivationRoute } from './routes/mgmt/send-activation';
import { openApiRoute } from './routes/openapi';
import type { ClientSecretVault } from './secrets/client-secret-vault';
import type { SupportPort } from './support/port';
import { type InvitationMailer, Invitations } from './use-cases/administrators/invitations';

export interface MgmtRouteDeps {
  dir: DirectoryRepositories;
  events: AdminEventPublisher;
  clock: Clock;
  admins: AdminsRepositories;
  adminKey: string | undefined;
  breakGlass: BreakGlass;
  adminKeyThrottle: AdminKeyThrottle;
  /** Sends administrator invitations. */
  mailer: InvitationMailer;
  invitationTtlMs: number;
  adminUrl: string;
  apiUrl: string;
  /** auth_url: the issuer the console signs administrators in with. */
  authUrl: string;
  /** The console's client secret at the system tenant (directory/system-tenant.ts). */
  consoleClientSecret: string;
  grants: GrantsPeer;
  users: UsersPeer;
  keys: KeysPeer;
  activityLogs: PromiseClient<activitylogs.ActivityLogsServiceClient>;
  /**
   * What support staff ask (support/port.ts): the console's Users and Activity pages, the admin API, the CLI.
   * Undefined: no support look-up on this server (those pages and routes answer 503).
   */
  support?: SupportPort;
  secretVault: ClientSecretVault;
  /** Development only: a backchannelLogoutUri may be on a loopback host (use-cases/deps.ts). */
  allowLoopbackEndpoints?: boolean;
  /** Short-lived state: console sessions (sign-ins in progress live in a browser cookie), the nonces of interactive init signatures. */
  kv: KeyValueStore;
}

const ADMIN = '/api/v1/admin';
const MGMT = ['/api/v1/mgmt', '/api/vbeta/mgmt'];

/**
 * Every public path of mgmt: on admin_url the admin API, the management API, the OpenAPI document and the
 * console (/console/); on api_url interactive init.
 */
export function mgmtRoutes(deps: MgmtRouteDeps): express.Router {
  const router = express.Router();
  const invitations = new Invitations({
    admins: deps.admins,
    events: deps.events,
    clock: deps.clock,
    mailer: deps.mailer,
    consoleUrl: `${deps.adminUrl.replace(/\/+$/, '')}/console`,
    ttlMs: deps.invitationTtlMs,
    branding: deps.dir.branding,
    authUrl: deps.authUrl,
    mailLimits: invitationMailLimiter(deps.kv, () => deps.clock.now()),
  });
  const admin = {
    dir: deps.dir,
    admins: deps.admins,
    invitations,
    events: deps.events,
    clock: deps.clock,
    users: deps.users,
    grants: deps.grants,
    keys: deps.keys,
    secretVault: deps.secretVault,
    allowLoopbackEndpoints: deps.allowLoopbackEndpoints ?? false,
    support: deps.support,
  };
  const apps = tenantApps(deps.dir.applications);

  router.use(
    ADMIN,
    noStore,
    strictJson('64kb'),
    adminAuth({
      adminKey: deps.adminKey,
      breakGlass: deps.breakGlass,
      admins: deps.admins,
      clock: deps.clock,
      throttle: deps.adminKeyThrottle,
    }),
  );
  router.use(
    prefixGate(
      'under',
      [ADMIN],
      createTenantRoute(admin),
      listTenantsRoute(admin),
      getTenantRoute(admin),
      updateTenantRoute(admin),
      removeTenantRoute(admin),
      createApplicationRoute(admin),
      listApplicationsRoute(admin),
      getApplicationRoute(admin),
      updateApplicationRoute(admin),
      removeApplicationRoute(admin),
      rotateClientSecretRoute(admin),
      createCredentialsRoute(admin),
      listCredentialsRoute(admin),
      revokeCredentialsRoute(admin),
      blockDeviceRoute(admin),
      inviteUserRoute(admin),
      blockedCountriesRoutes(admin),
      brandingRoutes(admin),
      rotateKeysRoute(admin),
      administratorsRoutes(admin),
      invitationsRoutes(admin),
      personalTokensRoutes(admin),
      supportRoutes(admin),
      attemptsRoutes(admin),
      personAccessRoutes(admin),
      peopleRoutes(admin),
    ),
  );
  router.use(ADMIN, notFound, mgmtErrors);

  router.use(
    MGMT,
    noStore,
    bearerAuth({ grants: deps.grants, credentials: deps.dir.credentials, clock: deps.clock }),
  );
  router.use(
    prefixGate(
      'under',
      MGMT,
      removeUserRoute({
        users: deps.users,
        grants: deps.grants,
        apps,
        events: deps.events,
        ...(deps.support ? { support: deps.support } : {}),
      }),
      sendActivationRoute({ users: deps.users, applications: deps.dir.applications }),
      createActivityLogsRoutes({ activityLogs: deps.activityLogs, apps }),
      createAdminLogsRoutes({ activityLogs: deps.activityLogs }),
    ),
  );
  router.use(MGMT, notFound, mgmtErrors);

  router.use(
    interactiveInitRoute({
      grants: deps.grants,
      users: deps.users,
      applications: deps.dir.applications,
      vault: deps.secretVault,
      clock: deps.clock,
      nonces: deps.kv,
    }),
  );
  router.use(openApiRoute(buildOpenApiDocument(deps.adminUrl, deps.apiUrl)));

  const consoleRedirectUri = `${deps.adminUrl.replace(/\/+$/, '')}/console/callback`;
  const consoleSignedOutUri = `${deps.adminUrl.replace(/\/+$/, '')}/console/signed-out`;
  let systemTenant: Promise<void> | undefined;
  router.use(
    consoleRouter({
      dir: deps.dir,
      admins: deps.admins,
      invitations,
      events: deps.events,
      clock: deps.clock,
      kv: deps.kv,
      secretVault: deps.secretVault,
      activityLogs: deps.activityLogs,
      allowLoopbackEndpoints: deps.allowLoopbackEndpoints ?? false,
      users: deps.users,
      grants: deps.grants,
      support: deps.support,
      client: {
        issuer: deps.authUrl,
        clientId: CONSOLE_CLIENT_ID,
        clientSecret: deps.consoleClientSecret,
        redirectUri: consoleRedirectUri,
        postLogoutRedirectUri: consoleSignedOutUri,
      },
      secureCookie: deps.adminUrl.startsWith('https:'),
      ensureSystemTenant: () => {
        systemTenant ??= ensureSystemTenant({
          dir: deps.dir,
          vault: deps.secretVault,
          clock: deps.clock,
          redirectUri: consoleRedirectUri,
          postLogoutRedirectUri: consoleSignedOutUri,
          clientSecret: deps.consoleClientSecret,
        }).catch((err: unknown) => {
          systemTenant = undefined;
          throw err;
        });
        return systemTenant;
      },
    }),
  );
  return router;
}
