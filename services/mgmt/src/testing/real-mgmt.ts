import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventBus } from '@sesame/events';
import { type RunningService, createLogger, runStandalone } from '@sesame/platform';
import { configSchema } from '../config';
import { createMgmtService } from '../service';
import { FakePeers } from './fake-peers';

export const INT_ADMIN_KEY = 'int-admin-key-0123456789abcdef';

export interface RealMgmt {
  url: string;
  peers: FakePeers;
  /** Stops mgmt, closes the bus it was given, stops the peers and removes the data directory. */
  stop(): Promise<void>;
}

/**
 * mgmt as it runs (its own stores from `env`, e.g. SESAME_MONGO_URL) on ephemeral ports, with faked Grants,
 * Users, Keys and ActivityLogs peers, the admin key INT_ADMIN_KEY (break-glass on) and a fresh data directory; `bus` builds the
 * event bus over that directory when the test reads what mgmt publishes.
 */
export async function startRealMgmt(
  env: Record<string, string>,
  bus?: (dataDir: string) => Promise<EventBus>,
): Promise<RealMgmt> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sesame-mgmt-int-'));
  const peers = await new FakePeers({ now: () => Date.now() }).start();
  const config = configSchema.parse({
    SESAME_ENV: 'test',
    LOG_LEVEL: 'silent',
    SESAME_ADMIN_KEY: INT_ADMIN_KEY,
    SESAME_ADMIN_BREAK_GLASS: 'on',
    SESAME_DATA_DIR: dataDir,
    SESAME_USERS_ADDR: peers.address,
    SESAME_KEYS_ADDR: peers.address,
    SESAME_GRANTS_ADDR: peers.address,
    SESAME_ACTIVITY_LOGS_ADDR: peers.address,
    ...env,
  });
  const eventBus = await bus?.(dataDir);
  const mod = await createMgmtService(config, {
    logger: createLogger({ service: 'mgmt', level: 'silent' }),
    ...(eventBus ? { bus: eventBus } : {}),
  });
  const running: RunningService = await runStandalone(mod, {
    httpPort: 0,
    grpcPort: 0,
    host: '127.0.0.1',
    shutdownTimeoutMs: 2000,
  });
  return {
    url: `http://127.0.0.1:${running.httpPort}`,
    peers,
    async stop() {
      await running.stop();
      await eventBus?.close();
      await peers.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
