import { afterAll, beforeAll } from '@jest/globals';
import { type TcpProxy, hostPortOf, startTcpProxy, throughProxy } from './tcp-proxy';

/**
 * The harness lifecycle most test files repeat: `start()` before the tests of the enclosing describe (or file),
 * `stop()` after them. Returns an object that stands for the started harness: every property read and write,
 * and every method call, reaches the harness `start` resolved to. Reading it before the tests run (outside an
 * `it` or hook) is a mistake and throws.
 *
 *   const h = startedForSuite(startMgmt); // instead of: let h; beforeAll(start); afterAll(stop)
 *   const auth = startedForSuite(() => startAuth({ env }));
 */
export function startedForSuite<T extends { stop(): unknown }>(start: () => Promise<T>): T {
  return openedForSuite(start, (started) => started.stop());
}

/**
 * The same for what has no stop of its own (a repository under a contract test): `open()` before the tests of
 * the enclosing describe, `close(opened)` after them when given; the object returned stands for what `open`
 * resolved to.
 */
export function openedForSuite<T extends object>(open: () => Promise<T>, close?: (opened: T) => unknown): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await open();
  });
  afterAll(async () => {
    if (started !== undefined) await close?.(started);
  });
  const current = (): T & object => {
    if (started === undefined)
      throw new Error('startedForSuite: the harness is used before beforeAll started it');
    return started;
  };
  return new Proxy({} as T & object, {
    get(_, name) {
      const target = current();
      const value = Reflect.get(target, name, target);
      // A class's methods run on the harness itself (private fields); an own function property is kept as it
      // is (a mock keeps its records), and calling it through this object reaches the harness all the same.
      return typeof value === 'function' && !Object.hasOwn(target, name) ? value.bind(target) : value;
    },
    set: (_, name, value) => Reflect.set(current(), name, value),
    has: (_, name) => Reflect.has(current(), name),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor(_, name) {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), name);
      // A proxy may only report properties its own (empty) target lacks as configurable.
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

/** An outage test's proxy and the harness that reaches its server through it. */
export interface BehindProxy<T> {
  proxy: TcpProxy;
  harness: T;
}

/**
 * For the outage tests of the enclosing describe: a TCP proxy in front of the real server of `url` (which the
 * tests stop and start; the server itself keeps running for every other test), and `start`'s harness on `url`
 * through the proxy. After the tests the proxy is started again (a test may leave it down), the harness
 * stopped, then the proxy closed.
 */
export function behindProxyForSuite<T extends { stop(): unknown }>(
  url: string,
  start: (urlThroughProxy: string) => Promise<T>,
): BehindProxy<T> {
  return openedForSuite(
    async () => {
      const proxy = await startTcpProxy(hostPortOf(url));
      try {
        return { proxy, harness: await start(throughProxy(url, proxy)) };
      } catch (err) {
        await proxy.close();
        throw err;
      }
    },
    async ({ proxy, harness }) => {
      await proxy.start();
      await harness.stop();
      await proxy.close();
    },
  );
}
