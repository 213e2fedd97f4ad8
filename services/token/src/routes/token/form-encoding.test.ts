import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { startTokenHarness } from '../../testing/token-harness';

/** Bodies whose percent-encoding is broken: `%zz`, a lone `%`, a cut UTF-8 sequence, bytes that are not UTF-8. */
const broken: [string, string | Uint8Array][] = [
  ['%zz', 'grant_type=client_credentials&client_id=%zz'],
  ['a lone %', 'grant_type=client_credentials&client_id=conf&scope=%'],
  ['a cut UTF-8 escape', 'grant_type=client_credentials&client_id=%E0%A4'],
  [
    'bytes that are not UTF-8',
    Buffer.from([...Buffer.from('grant_type=client_credentials&client_id='), 0xff, 0xfe]),
  ],
];

describe('token endpoints: a form body with a broken percent-encoding is 400 invalid_request', () => {
  const h = startedForSuite(startTokenHarness);

  for (const path of ['/token', '/revoke', '/introspect']) {
    for (const [what, body] of broken) {
      it(`${path}: ${what} → 400 invalid_request (never read as mangled text, never a 500)`, async () => {
        const res = await fetch(`${h.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
        const answer = (await res.json()) as { error?: string; error_description?: string };
        assert.equal(res.status, 400, JSON.stringify(answer));
        assert.equal(answer.error, 'invalid_request');
        assert.match(answer.error_description ?? '', /form body/);
      });
    }
  }
});
