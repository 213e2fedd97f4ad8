import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MgmtError } from '@sesame/platform';
import {
  REDIRECT_FIELDS,
  STEP_UP_MS,
  type StepUpAction,
  assertStepUp,
  stepUpRefusal,
  stepUpTable,
  touches,
} from './step-up';

const actions = Object.keys(stepUpTable) as StepUpAction[];
const NOW = 1_000_000_000;
const token = { kind: 'token', tokenId: 't', tenantId: 'acme', email: 'o@acme.test' } as const;

describe('the step-up table, checked in one place', () => {
  it('a console session signed in over 10 minutes ago is refused exactly the rows that need a recent sign-in', () => {
    const stale = { kind: 'console', signedInAt: NOW - STEP_UP_MS - 1 } as const;
    const fresh = { kind: 'console', signedInAt: NOW - STEP_UP_MS } as const;
    assert.deepEqual(
      actions.filter((a) => stepUpRefusal(a, stale, NOW)),
      actions.filter((a) => stepUpTable[a].recentSignIn),
    );
    assert.deepEqual(
      actions.filter((a) => stepUpRefusal(a, fresh, NOW)),
      [],
    );
  });

  it('on the admin API a personal API token is refused only token.create (403 step_up_required); the bootstrap key nothing here', () => {
    assert.deepEqual(
      actions.filter((a) => stepUpRefusal(a, token, NOW)),
      ['token.create'],
    );
    assert.throws(
      () => assertStepUp('token.create', token, NOW),
      (err: unknown) => err instanceof MgmtError && err.status === 403 && err.code === 'step_up_required',
    );
    assert.deepEqual(
      actions.filter((a) => stepUpRefusal(a, { kind: 'bootstrap', breakGlass: true }, NOW)),
      [],
    );
  });

  it('an application edit is application.redirects only when it changes where things go', () => {
    const app = {
      name: 'Shop',
      redirectUris: ['https://shop.test/cb'],
      ciba: { mode: 'poll', strictErrors: false },
      allowedScopes: ['openid'],
    };
    assert.equal(
      touches(app, { name: 'Renamed', allowedScopes: ['openid', 'email'] }, REDIRECT_FIELDS),
      false,
    );
    assert.equal(touches(app, { redirectUris: ['https://shop.test/cb'] }, REDIRECT_FIELDS), false);
    assert.equal(touches(app, { ciba: { strictErrors: true, mode: 'poll' } }, REDIRECT_FIELDS), false);
    assert.equal(touches(app, { postLogoutRedirectUris: [] }, REDIRECT_FIELDS), false, '[] is none');
    assert.equal(touches(app, { redirectUris: ['https://evil.test/cb'] }, REDIRECT_FIELDS), true);
    assert.equal(touches(app, { redirectUris: [] }, REDIRECT_FIELDS), true, 'clearing is a change');
    assert.equal(
      touches(app, { ciba: { mode: 'ping', notificationEndpoint: 'https://evil.test/n' } }, REDIRECT_FIELDS),
      true,
    );
    assert.equal(touches(app, { backchannelLogoutUri: 'https://evil.test/bc' }, REDIRECT_FIELDS), true);
  });
});
