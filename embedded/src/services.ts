import { createActivityLogService, loadActivityLogConfig } from '@sesame/activity-log-service';
import { createAuthService, loadAuthConfig } from '@sesame/auth-service';
import { createCibaNotifierService, loadCibaNotifierConfig } from '@sesame/ciba-notifier-service';
import type { EmbeddedStore } from '@sesame/embedded-store';
import type { EventBus } from '@sesame/events';
import { createJwksService, loadJwksConfig } from '@sesame/jwks-service';
import type { MailSender } from '@sesame/mail';
import { createMgmtService, loadMgmtConfig } from '@sesame/mgmt-service';
import type { ServiceModule, ServiceName } from '@sesame/platform';
import { createTokenService, loadTokenConfig } from '@sesame/token-service';

type Env = Record<string, string | undefined>;

/**
 * What the launcher shares with every service: the in-memory bus (none with Kafka), the development outbox
 * (when there is one), and the one durable engine (none with `SESAME_STORES=memory`: everything in memory).
 */
export interface SharedParts {
  bus?: EventBus;
  mail?: MailSender;
  embedded?: EmbeddedStore;
}

const overridesOf = ({ bus, embedded }: SharedParts) => ({ bus, ...(embedded ? { embedded } : {}) });
/** auth and mgmt send mail: the shared outbox when there is one, else the sender their config picks. */
const withMail = (shared: SharedParts) => ({
  ...overridesOf(shared),
  ...(shared.mail ? { mail: shared.mail } : {}),
});

/** How to build each service from an environment; the order is the start order (key owner first). */
export const serviceFactories: Array<{
  name: ServiceName;
  create: (env: Env, shared: SharedParts) => Promise<ServiceModule>;
}> = [
  { name: 'jwks', create: (env, shared) => createJwksService(loadJwksConfig(env), overridesOf(shared)) },
  { name: 'mgmt', create: (env, shared) => createMgmtService(loadMgmtConfig(env), withMail(shared)) },
  { name: 'token', create: (env, shared) => createTokenService(loadTokenConfig(env), overridesOf(shared)) },
  { name: 'auth', create: (env, shared) => createAuthService(loadAuthConfig(env), withMail(shared)) },
  {
    name: 'activity-log',
    create: (env, shared) => createActivityLogService(loadActivityLogConfig(env), overridesOf(shared)),
  },
  {
    name: 'ciba-notifier',
    create: (env, shared) => createCibaNotifierService(loadCibaNotifierConfig(env), overridesOf(shared)),
  },
];
