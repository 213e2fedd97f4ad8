import { afterAll, beforeAll } from '@jest/globals';

/** What a contract run is given: the adapter under test, and how to close it. */
export type MakeAdapter<R> = () => Promise<{ repo: R; close?: () => Promise<void> }>;

/**
 * The adapter under test, opened before the tests of the enclosing describe and closed after them. The object
 * returned stands for it: every member read (a method bound to the adapter) reaches the opened adapter;
 * reading one before the tests run (outside an `it` or hook) throws.
 */
export function openedAdapter<R extends object>(make: MakeAdapter<R>): R {
  let opened: Awaited<ReturnType<MakeAdapter<R>>> | undefined;
  beforeAll(async () => {
    opened = await make();
  });
  afterAll(() => opened?.close?.());
  return new Proxy({} as R, {
    get(_, name) {
      if (!opened) throw new Error('openedAdapter: the adapter is used before beforeAll opened it');
      const repo = opened.repo;
      const value = Reflect.get(repo, name, repo);
      return typeof value === 'function' ? value.bind(repo) : value;
    },
  });
}
