import { createActivityLogService, loadActivityLogConfig } from '@sesame/activity-log-service';
import { createAuthService, loadAuthConfig } from '@sesame/auth-service';
import { createCibaNotifierService, loadCibaNotifierConfig } from '@sesame/ciba-notifier-service';
import type { EventBus } from '@sesame/events';
import { createJwksService, loadJwksConfig } from '@sesame/jwks-service';
import { createMgmtService, loadMgmtConfig } from '@sesame/mgmt-service';
import type { ServiceModule, ServiceName } from '@sesame/platform';
import { createTokenService, loadTokenConfig } from '@sesame/token-service';

type Env = Record<string, string | undefined>;

/** How to build each service from an environment; the order is the start order (key owner first). */
export const serviceFactories: Array<{
  name: ServiceName;
  create: (env: Env, bus: EventBus | undefined) => Promise<ServiceModule>;
}> = [
  { name: 'jwks', create: (env) => createJwksService(loadJwksConfig(env)) },
  { name: 'mgmt', create: (env, bus) => createMgmtService(loadMgmtConfig(env), { bus }) },
  { name: 'token', create: (env, bus) => createTokenService(loadTokenConfig(env), { bus }) },
  { name: 'auth', create: (env, bus) => createAuthService(loadAuthConfig(env), { bus }) },
  {
    name: 'activity-log',
    create: (env, bus) => createActivityLogService(loadActivityLogConfig(env), { bus }),
  },
  {
    name: 'ciba-notifier',
    create: (env, bus) => createCibaNotifierService(loadCibaNotifierConfig(env), { bus }),
  },
];
