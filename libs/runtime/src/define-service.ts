import type { BaseConfig, Readiness, ServiceModule } from '@sesame/platform';
import type { StoreNeeds } from './index';
import { type ServiceBasics, type ServiceOverrides, openService } from './open-service';

/** What a service builds on its basics; the name, logger, metrics and the stores' readiness are added. */
export type ServiceParts = Omit<ServiceModule, 'name' | 'logger' | 'metrics' | 'readiness' | 'stop'> & {
  /** Checks besides those of the stores. */
  readiness?: Readiness[];
  /** Stops the service's background work and clients; the stores are closed after it. */
  stop?: () => Promise<void>;
};

/** What a service's build step gets: the basics of openService, its config and the overrides it was given. */
export type ServiceBuild<C extends BaseConfig, O extends ServiceOverrides> = ServiceBasics & {
  config: C;
  overrides: O;
};

/**
 * A service's factory, the same steps for every service: open its basics (openService: logger, metrics, the
 * stores it needs), build its parts on them, and make the module, whose readiness starts with the stores'
 * checks and whose stop closes the stores after the service's own stop.
 */
export function defineService<C extends BaseConfig, O extends ServiceOverrides>(
  name: string,
  needs: StoreNeeds,
  build: (basics: ServiceBuild<C, O>) => Promise<ServiceParts>,
): (config: C, overrides?: O) => Promise<ServiceModule> {
  return async (config, overrides = {} as O) => {
    const basics = await openService(name, config, needs, overrides);
    const { stop, readiness = [], ...parts } = await build({ ...basics, config, overrides });
    const { logger, metrics, stores } = basics;
    return {
      ...parts,
      name,
      logger,
      metrics,
      readiness: [...stores.readiness, ...readiness],
      async stop() {
        await stop?.();
        await stores.close();
      },
    };
  };
}
