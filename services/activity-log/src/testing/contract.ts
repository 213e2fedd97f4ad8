import { openedForSuite } from '@sesame/testing/suite';

/** What a contract run is given: the adapter under test, and how to close it. */
export type MakeAdapter<R> = () => Promise<{ repo: R; close?: () => Promise<void> }>;

/**
 * The adapter under test, opened before the tests of the enclosing describe and closed after them; the object
 * returned stands for it (openedForSuite).
 */
export function openedAdapter<R extends object>(make: MakeAdapter<R>): R {
  let close: (() => Promise<void>) | undefined;
  return openedForSuite(
    async () => {
      const opened = await make();
      close = opened.close;
      return opened.repo;
    },
    () => close?.(),
  );
}
