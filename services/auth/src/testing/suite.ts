import { afterAll, beforeAll } from '@jest/globals';

/**
 * A service the tests of a describe share: started before them and stopped after them. What it returns stands
 * in for the started service (its fields and methods are the started one's), so a test reads it as the service.
 */
export function startedForSuite<S extends object & { stop(): unknown }>(start: () => Promise<S>): S {
  let started: S | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.stop();
  });
  return new Proxy({} as S, {
    get(_target, key) {
      if (!started) throw new Error('the service starts in beforeAll: use it in a test or a later hook');
      const value: unknown = Reflect.get(started, key, started);
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
}
