import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { Flow } from '../../flow/flow';
import { contexts } from '../../pages/contexts';
import { STENCIL_HOLES } from '../../pages/renderer';
import type { SignInRequest } from '../../signin/request';
import { identifyView } from './view';

type SignInFlow = Flow<SignInRequest>;

/** Dotted paths of the leaves where two contexts differ. */
function differing(a: unknown, b: unknown, path: string[] = []): string[] {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) =>
      differing((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], [...path, k]),
    );
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [path.join('.')];
}

describe('identify page views and their stencil', () => {
  const tools = { locale: 'en' as const, assetUrl: (name: string) => `/assets/${name}` };
  const flow = (id: string, appName: string, email?: string) =>
    ({ id, appName, email, request: {} }) as unknown as SignInFlow;

  // A field that changes from one first visit to the next but is no hole makes every visit a new shape:
  // the page renders with Handlebars twice per request and the stencil cache fills with one-off entries.
  it('varies between two first visits only in stencil holes (flow URLs, CSRF token, app name, email)', () => {
    const one = contexts.identify(identifyView(flow('flow-1', 'Shop', 'a@example.com'), 'csrf-1'), tools);
    const two = contexts.identify(identifyView(flow('flow-2', 'Bank', 'b@example.com'), 'csrf-2'), tools);
    const varying = differing(one, two).sort();
    assert.deepEqual(varying, [...STENCIL_HOLES.identify!].sort());
  });
});
