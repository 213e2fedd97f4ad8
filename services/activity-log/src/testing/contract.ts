import { afterAll, beforeAll } from '@jest/globals';

/** What a contract run is given: the adapter under test, and how to close it. */
export type MakeAdapter<R> = () => Promise<{ repo: R; close?: () => Promise<void> }>;

/**
 * Opens the adapter under test before the tests of the enclosing describe (handing it to `use`) and closes
 * it after them.
 */
export function openAdapter<R>(make: MakeAdapter<R>, use: (repo: R) => void): void {
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await make();
    close = opened.close;
    use(opened.repo);
  });
  afterAll(() => close?.());
}
