// Test support: the races the failure throttle must win, run against the in-memory and the Redis adapter.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from '@jest/globals';
import type { KeyValueStore } from '@sesame/kv';
import { oauthErrors } from '@sesame/oauth';
import { type OAuthError, systemClock } from '@sesame/platform';
import { sleep } from '@sesame/testing';
import { cacheDirectory } from '../directory/cached-directory';
import type { ClientDirectory } from '../directory/directory';
import { throttled } from '../routes/token/checks/authenticate-client';
import type { TokenRequest } from '../routes/token/token-request';
import { AuthFailureThrottle } from './auth-failures';

/** A Directory that knows one secret and takes 20 ms per answer, counting the calls that reach it. */
function slowDirectory(rightSecret: string) {
  const calls = { count: 0 };
  const inner = {
    authenticateApiCredentials: async (credentialsId: string, secret: string) => {
      calls.count++;
      await sleep(20);
      return secret === rightSecret ? { tenantId: 't', credentialsId } : null;
    },
  } as ClientDirectory;
  return { calls, inner };
}

function attempt(
  deps: Parameters<typeof throttled>[0],
  ip: string,
  credentialsId: string,
  secret: string,
): Promise<number> {
  const request = { clientIp: ip } as TokenRequest;
  return throttled(deps, request, credentialsId, async (directory) => {
    if (!(await directory.authenticateApiCredentials(credentialsId, secret)))
      throw oauthErrors.invalidClient('client authentication failed');
  }).then(
    () => 200,
    (err: OAuthError) => err.status,
  );
}

export function throttleRaceSuite(adapter: string, make: () => KeyValueStore): void {
  describe(`AuthFailureThrottle under concurrency: ${adapter}`, () => {
    const kv = make();
    afterAll(() => kv.close());
    /**
     * A throttle with these limits (a one-minute window) on the suite's KV, over a slow Directory whose one
     * secret is `right` (cached for `cacheMs`), and a client id of its own.
     */
    const throttled = (limits: { perClientAndIp: number; perIp: number }, cacheMs: number) => {
      const { calls, inner } = slowDirectory('right');
      const deps = {
        authFailures: new AuthFailureThrottle(kv, { ...limits, windowMs: 60_000 }),
        directory: cacheDirectory(inner, cacheMs, systemClock),
      };
      return { calls, deps, id: `cred-${randomUUID()}` };
    };

    it('lets at most 3 of 100 parallel wrong secrets reach the Directory with a limit of 3; the rest get 429', async () => {
      const { calls, deps, id } = throttled({ perClientAndIp: 3, perIp: 0 }, 5000);
      const statuses = await Promise.all(
        Array.from({ length: 100 }, (_, i) => attempt(deps, '192.0.2.10', id, `wrong-${i}`)),
      );
      assert.equal(calls.count, 3);
      assert.equal(statuses.filter((s) => s === 401).length, 3);
      assert.equal(statuses.filter((s) => s === 429).length, 97);
    });

    it('does not throttle 50 parallel requests with the right secret under a limit of 2', async () => {
      const { deps, id } = throttled({ perClientAndIp: 2, perIp: 2 }, 5000);
      const statuses = await Promise.all(
        Array.from({ length: 50 }, () => attempt(deps, '192.0.2.11', id, 'right')),
      );
      assert.deepEqual(new Set(statuses), new Set([200]));
    });

    it('gives a success its slot back: after 10 successes a caller still has its 2 failures, then 429', async () => {
      const { deps, id } = throttled({ perClientAndIp: 2, perIp: 0 }, 0);
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push(await attempt(deps, '192.0.2.12', id, 'right'));
      for (const secret of ['wrong-1', 'wrong-2', 'wrong-3', 'right'])
        statuses.push(await attempt(deps, '192.0.2.12', id, secret));
      assert.deepEqual(statuses, [...Array(10).fill(200), 401, 401, 429, 429]);
    });
  });
}
