import { createActivityLogService, loadActivityLogConfig } from '@sesame/activity-log-service';
import { createAuthService, loadAuthConfig } from '@sesame/auth-service';
import { createCibaNotifierService, loadCibaNotifierConfig } from '@sesame/ciba-notifier-service';
import type { EventBus } from '@sesame/events';
import { createJwksService, loadJwksConfig } from '@sesame/jwks-service';
import type { MailSender } from '@sesame/mail';
import { createMgmtService, loadMgmtConfig } from '@sesame/mgmt-service';
import type { ServiceModule, ServiceName } from '@sesame/platform';
import { createTokenService, loadTokenConfig } from '@sesame/token-service';

type Env = Record<string, string | undefined>;

/** How to build each service from an environment; the order is the start order (key owner first). */
export const serviceFactories: Array<{
  name: ServiceName;
  /** `mail`: the development outbox the services share, when there is one. */
  create: (env: Env, bus: EventBus | undefined, mail?: MailSender) => Promise<ServiceModule>;
}> = [
  { name: 'jwks', create: (env) => createJwksService(loadJwksConfig(env)) },
  {
    name: 'mgmt',
    create: (env, bus, mail) => createMgmtService(loadMgmtConfig(env), { bus, ...(mail ? { mail } : {}) }),
  },
  { name: 'token', create: (env, bus) => createTokenService(loadTokenConfig(env), { bus }) },
  {
    name: 'auth',
    create: (env, bus, mail) => createAuthService(loadAuthConfig(env), { bus, ...(mail ? { mail } : {}) }),
  },
  {
    name: 'activity-log',
    create: (env, bus) => createActivityLogService(loadActivityLogConfig(env), { bus }),
  },
  {
    name: 'ciba-notifier',
    create: (env, bus) => createCibaNotifierService(loadCibaNotifierConfig(env), { bus }),
  },
];
