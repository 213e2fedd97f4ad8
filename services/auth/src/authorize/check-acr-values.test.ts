import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { assertInvalidRequest, parse } from './authorize-test-support';

describe('acr_values', () => {
  it('returns ts.svc.iac.email once', async () => {
    const { request } = await parse({ acr_values: 'ts.svc.iac.email ts.svc.iac.email' });
    assert.deepEqual(request.acrValues, ['ts.svc.iac.email']);
  });

  it('accepts ts.svc.iac.phone_number beside ts.svc.iac.email', async () => {
    const { request } = await parse({ acr_values: 'ts.svc.iac.email ts.svc.iac.phone_number' });
    assert.deepEqual(request.acrValues, ['ts.svc.iac.email', 'ts.svc.iac.phone_number']);
  });

  it('refuses an unknown value with invalid_request', async () => {
    await assertInvalidRequest(
      { acr_values: 'ts.svc.app_bound_cred' },
      'acr_values may only contain ts.svc.iac.email and ts.svc.iac.phone_number',
    );
  });
});
