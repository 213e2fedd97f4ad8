import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { assertRedirected, parse } from './authorize-test-support';

describe('acr_values', () => {
  it('returns ts.svc.iac.email once', async () => {
    const { request } = await parse({ acr_values: 'ts.svc.iac.email ts.svc.iac.email' });
    assert.deepEqual(request.acrValues, ['ts.svc.iac.email']);
  });

  it('refuses ts.svc.iac.phone_number as not supported yet (invalid_request)', async () => {
    await assertRedirected(
      parse({ acr_values: 'ts.svc.iac.email ts.svc.iac.phone_number' }),
      'invalid_request',
      'acr_values ts.svc.iac.phone_number is not supported yet',
    );
  });

  it('refuses an unknown value with invalid_request', async () => {
    await assertRedirected(
      parse({ acr_values: 'ts.svc.app_bound_cred' }),
      'invalid_request',
      'acr_values may only contain ts.svc.iac.email',
    );
  });
});
