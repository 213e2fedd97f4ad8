import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { libraryOn, silentLogger } from '@sesame/activity-log-service/testing/real-kafka';
import { GrpcServer, createClient, createHttpApp, errorHandler, listen } from '@sesame/platform';
import { activitylogs } from '@sesame/proto';
import { eventually } from '@sesame/testing';
import { startedForSuite } from '@sesame/testing/suite';
import { apps, principal } from '../testing/logs-harness';
import { startRealActivityLog } from '../testing/real-activity-log';
import { ACTIVITY_LOGS_PATH, createActivityLogsRoutes } from './activity-logs';

const T0 = 1_700_000_000_000;

describe('activity-logs endpoint over Kafka, the activity-log consumer, the Mongo-wire server and gRPC', () => {
  const log = startedForSuite(() => startRealActivityLog('activity-logs-endpoint'));
  let url: string;
  const closers: (() => Promise<void> | void)[] = [];
  beforeAll(async () => {
    const grpcServer = new GrpcServer({ logger: silentLogger });
    grpcServer.add<activitylogs.ActivityLogsServiceServer>(
      activitylogs.ActivityLogsServiceService,
      log.handlers,
    );
    const port = await grpcServer.start(0, '127.0.0.1');
    const client = createClient(activitylogs.ActivityLogsServiceClient, `127.0.0.1:${port}`);
    const app = createHttpApp(silentLogger);
    app.use((_req, res, next) => {
      res.locals.principal = principal;
      next();
    });
    app.use(createActivityLogsRoutes({ activityLogs: client, apps }));
    app.use(errorHandler(silentLogger));
    const http = await listen(app, 0, '127.0.0.1');
    url = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}${ACTIVITY_LOGS_PATH}`;
    closers.push(
      () => client.close(),
      () => http.close(1000),
      () => grpcServer.stop(1000),
    );
  });
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('events published through the library appear as one correct record per flow', async () => {
    const flowEvents = libraryOn(log.pipeline);
    const base = { tenantId: 'tenant-a', appId: 'app-1', clientIp: '198.51.100.9' } as const;
    for (const flowId of ['flow-x', 'flow-y']) {
      const t = flowId === 'flow-x' ? T0 : T0 + 60_000;
      await flowEvents.record({
        ...base,
        flowId,
        timestamp: t,
        action: 'auth_start_oidc',
        flowType: 'authentication',
      });
      await flowEvents.record({
        ...base,
        flowId,
        timestamp: t + 500,
        action: 'desktop_login_page',
        accessingDevice: 'Windows 11 Edge 120',
        accessingDeviceInfo: {
          osType: 'Windows',
          osVersion: '11',
          browserType: 'Edge',
          browserVersion: '120',
        },
      });
      await flowEvents.record({
        ...base,
        flowId,
        timestamp: t + 900,
        action: 'auth_complete',
        userId: `${flowId}-user`,
        status: 'success',
        details: { method: 'passkey' },
      });
    }
    const body = {
      appId: 'app-1',
      credentialsId: principal.credentialsId,
      timeStart: T0,
      timeEnd: T0 + 3_600_000,
    };
    const read = async () => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()) as { activityLogs: { id: string; events: unknown[] }[]; total: number };
    };
    const page = await eventually(
      read,
      (b) => b.activityLogs?.reduce((n, r) => n + r.events.length, 0) === 6,
      60_000,
    );
    assert.equal(page.total, 2);
    assert.deepEqual(page.activityLogs[0], {
      id: 'flow-y',
      userId: 'flow-y-user',
      applicationId: 'app-1',
      businessUnit: 'tenant-a',
      timestamp: T0 + 60_000,
      accessingDevice: 'Windows 11 Edge 120',
      accessingDeviceInfo: { osType: 'Windows', osVersion: '11', browserType: 'Edge', browserVersion: '120' },
      flowType: 'authentication',
      status: 'success',
      events: [
        {
          id: (page.activityLogs[0]!.events[0] as { id: string }).id,
          timestamp: T0 + 60_000,
          payload: { flowId: 'flow-y', details: { action: 'auth_start_oidc', clientIp: '198.51.100.9' } },
        },
        {
          id: (page.activityLogs[0]!.events[1] as { id: string }).id,
          timestamp: T0 + 60_500,
          payload: { flowId: 'flow-y', details: { action: 'desktop_login_page', clientIp: '198.51.100.9' } },
        },
        {
          id: (page.activityLogs[0]!.events[2] as { id: string }).id,
          timestamp: T0 + 60_900,
          payload: {
            flowId: 'flow-y',
            details: { action: 'auth_complete', clientIp: '198.51.100.9', method: 'passkey' },
          },
        },
      ],
    });
    assert.equal(page.activityLogs[1]?.id, 'flow-x');
  });
});
