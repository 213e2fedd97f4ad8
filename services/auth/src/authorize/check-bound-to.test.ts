import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { assertInvalidRequest, parse } from './authorize-test-support';

const SUB = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const FORMAT = 'bound_to must be alias:<value> or sub:<uuid>';

describe('bound_to', () => {
  it('parses alias:<value>', async () => {
    assert.deepEqual((await parse({ bound_to: 'alias:cust:42' })).request.boundTo, {
      type: 'alias',
      value: 'cust:42',
    });
  });

  it('parses sub:<uuid>, lower-cased', async () => {
    const { request } = await parse({ bound_to: `sub:${SUB.toUpperCase()}` });
    assert.deepEqual(request.boundTo, { type: 'sub', value: SUB });
  });

  it('refuses a sub that is not a UUID (invalid_request)', async () => {
    await assertInvalidRequest({ bound_to: 'sub:12345' }, FORMAT);
  });

  it('refuses other types, an empty value or no type (invalid_request)', async () => {
    for (const boundTo of ['email:ada@example.com', 'alias:', `:${SUB}`, SUB, `alias:${'a'.repeat(257)}`]) {
      await assertInvalidRequest({ bound_to: boundTo }, FORMAT);
    }
  });
});
