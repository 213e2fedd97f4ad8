// Discovery's grant_types_supported is @sesame/oauth's GRANT_TYPES (auth's discovery-checks.test.ts): /token
// must serve each of them, and nothing else.
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { GRANT_TYPES } from '@sesame/oauth';
import type { TokenDeps } from '../../../deps';
import { isOAuthError } from '../../../testing/oauth-error';
import { selectGrant } from '../checks/select-grant';
import type { TokenRequest } from '../token-request';
import { grantHandlers } from './grant-handlers';

const request = (grantType: string): TokenRequest => ({
  params: { grant_type: grantType },
  authorization: undefined,
  clientIp: '192.0.2.1',
});

describe('grantHandlers', () => {
  // Building the handlers reads no dependency; only a request does.
  const handlers = grantHandlers({} as TokenDeps);

  it('serves every grant type discovery advertises, each with its own handler', () => {
    const selected = GRANT_TYPES.map((grantType) => selectGrant(request(grantType), handlers));
    assert.equal(new Set(selected).size, GRANT_TYPES.length);
  });

  it('serves nothing else: another grant type is unsupported_grant_type', () => {
    assert.deepEqual(Object.keys(handlers).sort(), [...GRANT_TYPES].sort());
    for (const grantType of ['password', 'urn:ietf:params:oauth:grant-type:device_code', 'implicit']) {
      assert.throws(
        () => selectGrant(request(grantType), handlers),
        isOAuthError({ code: 'unsupported_grant_type', status: 400 }),
      );
    }
  });
});
