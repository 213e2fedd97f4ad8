import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
// The real ActivityLogs service over its in-memory repositories (a devDependency: services never import each other at run time).
import {
  MemoryActivityLogRepository,
  MemoryAdminLogRepository,
  activityLogsGrpc,
} from '@sesame/activity-log-service';
import {
  GrpcServer,
  type PromiseClient,
  createClient,
  createHttpApp,
  createLogger,
  errorHandler,
  listen,
} from '@sesame/platform';
import { activitylogs } from '@sesame/proto';
import type express from 'express';
import type { MgmtPrincipal, TenantApps } from '../principal';
import { ACTIVITY_LOGS_DEADLINE_MS } from '../service';

export const principal: MgmtPrincipal = { tenantId: 'tenant-a', credentialsId: 'cred-a' };

/** app-1 and app-2 belong to tenant-a, app-b to tenant-b. */
export const apps: TenantApps = {
  belongsToTenant: async (tenantId, appId) =>
    (tenantId === 'tenant-a' && ['app-1', 'app-2'].includes(appId)) ||
    (tenantId === 'tenant-b' && appId === 'app-b'),
};

export interface LogsHarness {
  url: string;
  activityLogs: MemoryActivityLogRepository;
  adminLogs: MemoryAdminLogRepository;
  close(): Promise<void>;
}

/**
 * A real ActivityLogs gRPC server (memory repositories), a client to it, and an HTTP app serving the router
 * built from that client behind a stand-in for the bearer middleware that sets `principal`.
 */
export async function startLogsHarness(
  makeRouter: (client: PromiseClient<activitylogs.ActivityLogsServiceClient>) => express.Router,
): Promise<LogsHarness> {
  const logger = createLogger({ service: 'mgmt-test', level: 'silent' });
  const activityLogs = new MemoryActivityLogRepository();
  const adminLogs = new MemoryAdminLogRepository();
  const grpcServer = new GrpcServer({ logger });
  grpcServer.add<activitylogs.ActivityLogsServiceServer>(
    activitylogs.ActivityLogsServiceService,
    activityLogsGrpc({ activityLogs, adminLogs }),
  );
  const grpcPort = await grpcServer.start(0, '127.0.0.1');
  const client = createClient(activitylogs.ActivityLogsServiceClient, `127.0.0.1:${grpcPort}`, {
    deadlineMs: ACTIVITY_LOGS_DEADLINE_MS,
  });
  const app = createHttpApp(logger);
  app.use((_req, res, next) => {
    res.locals.principal = principal;
    next();
  });
  app.use(makeRouter(client));
  app.use(errorHandler(logger));
  const http = await listen(app, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`,
    activityLogs,
    adminLogs,
    async close() {
      client.close();
      await Promise.all([http.close(1000), grpcServer.stop(1000)]);
    },
  };
}

/**
 * The 400 of a log query that breaks one rule: invalid_request in the management error object, naming `field`
 * and only it, in `fields` and at the start of the message.
 */
export function assertNamesField(
  res: {
    status: number;
    body: { status?: unknown; error?: { code?: unknown; fields?: object; message?: string } };
  },
  field: string,
): void {
  const { status, body } = res;
  assert.equal(status, 400);
  assert.equal(body.status, 'error');
  assert.equal(body.error?.code, 'invalid_request');
  assert.deepEqual(Object.keys(body.error?.fields ?? {}), [field]);
  assert.match(body.error?.message ?? '', new RegExp(`^${field} `));
}
