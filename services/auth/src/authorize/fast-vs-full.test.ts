import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { seeded, testSeed } from '@sesame/testing';
import express from 'express';
import { fastAuthorizeParams } from '../journeys/sign-in/authorize-fast';
import { CHALLENGE, REDIRECT_URI, testDeps } from './authorize-test-support';
import { authorizeQueries } from './generated-queries';
import { parseAuthorizeRequest } from './parse-authorize-request';
import type { RawAuthorizeParams } from './read-params';
import type { ValidAuthorization } from './types';

/**
 * Differential test of the raw GET /authorize's reading of the query (fastAuthorizeParams: plain queries
 * only, no request object, then parseAuthorizeRequest) against the express route's (express's query parser,
 * then parseAuthorizeRequest), over generated queries: valid ones and mutations of them (parameters missing,
 * repeated, bracketed or unknown; bad redirect_uri, scope, client, PKCE; huge values; odd encodings; request
 * objects). The fast path may hand any request to express, but what it accepts the express route must accept,
 * with the same validated request.
 */

const SEED = testSeed(11_262_026);
const QUERIES = 2500;
/** express 4's query parser ("extended": qs), exactly as the express route reads req.query. */
const expressQuery = express().get('query parser fn') as (query: string) => RawAuthorizeParams;
const deps = testDeps();

const query = authorizeQueries(REDIRECT_URI, CHALLENGE);

type Decision = { accepted: ValidAuthorization } | { declined: string };

async function decide(params: RawAuthorizeParams | undefined): Promise<Decision> {
  if (!params) return { declined: 'not a plain query' };
  try {
    return { accepted: await parseAuthorizeRequest(params, deps) };
  } catch (err) {
    return { declined: (err as Error).message };
  }
}

describe('GET /authorize: the fast path never accepts what the express route refuses', () => {
  it(`accepts a generated query only when the full reading does, with the same request (seed ${SEED})`, async () => {
    const g = seeded(SEED);
    const counts = { fast: 0, full: 0, refused: 0, handedOn: 0 };
    for (let i = 0; i < QUERIES; i++) {
      const q = query(g);
      const full = await decide(expressQuery(q));
      const fast = await decide(fastAuthorizeParams(`/authorize?${q}`));
      if ('accepted' in full) counts.full++;
      else counts.refused++;
      if (!('accepted' in fast)) {
        if ('accepted' in full) counts.handedOn++;
        continue;
      }
      counts.fast++;
      if (!('accepted' in full))
        assert.fail(`the fast path accepts what the express route refuses (${full.declined}): ?${q}`);
      assert.deepEqual(fast.accepted, full.accepted, `?${q}`);
    }
    // Both sides are reached: requests the fast path serves itself, and requests the full checks refuse.
    assert.ok(counts.fast > QUERIES / 5, JSON.stringify(counts));
    assert.ok(counts.refused > QUERIES / 5, JSON.stringify(counts));
  });
});
