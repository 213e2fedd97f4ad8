import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import {
  interactiveAuthorization,
  interactiveSignature,
  parseInteractiveAuthorization,
} from './interactive-signature';

// The worked example of docs/interactive-init.md: if this test changes, change the document with it.
const TOKEN = 'at_3q2rJ9XoV7mPZk1fGJm0cQ8sYt4uWbNe5aLhDvKp';
const SECRET = 'sk_demo_Xy7Pq2Lm9Rt4Vw8Zb1Nc6Hd3Fg5Jk0Ms';
const SIGNATURE = '5HWdefECaHiC0Zum5wznHjAgKyqD4UU_HHd-swVs-WM';

describe('interactive init Authorization scheme', () => {
  it('recomputes the worked example of the docs: HMAC-SHA256(secret, token), base64url without padding', () => {
    assert.equal(interactiveSignature(TOKEN, SECRET), SIGNATURE);
    assert.equal(interactiveAuthorization(TOKEN, SECRET), `Sesame AccessToken ${TOKEN}; ${SIGNATURE}`);
    const here = dirname(fileURLToPath(import.meta.url));
    const doc = readFileSync(join(here, '../../../docs/interactive-init.md'), 'utf8');
    for (const value of [TOKEN, SECRET, SIGNATURE]) assert.ok(doc.includes(value), `the docs show ${value}`);
  });

  it('parses exactly the defined shape, the scheme word in any case', () => {
    assert.deepEqual(parseInteractiveAuthorization(`Sesame AccessToken ${TOKEN}; ${SIGNATURE}`), {
      accessToken: TOKEN,
      signature: SIGNATURE,
    });
    assert.deepEqual(parseInteractiveAuthorization(`sesame AccessToken ${TOKEN}; ${SIGNATURE}`), {
      accessToken: TOKEN,
      signature: SIGNATURE,
    });
  });

  it('refuses every other shape', () => {
    for (const bad of [
      undefined,
      '',
      `Bearer ${TOKEN}`,
      `Sesame ${TOKEN}; ${SIGNATURE}`,
      `Sesame accesstoken ${TOKEN}; ${SIGNATURE}`,
      `Sesame AccessToken ${TOKEN};${SIGNATURE}`,
      `Sesame AccessToken ${TOKEN} ; ${SIGNATURE}`,
      `Sesame  AccessToken ${TOKEN}; ${SIGNATURE}`,
      `Sesame AccessToken ${TOKEN}; ${SIGNATURE}=`,
      `Sesame AccessToken ${TOKEN}; ${SIGNATURE.slice(1)}`,
      `Sesame AccessToken ${TOKEN}; ${SIGNATURE} `,
      `Sesame AccessToken ; ${SIGNATURE}`,
      `Other AccessToken ${TOKEN}; ${SIGNATURE}`,
      `Sesame AccessToken ${TOKEN}; ${SIGNATURE}; extra`,
    ]) {
      assert.equal(parseInteractiveAuthorization(bad), undefined, String(bad));
    }
  });
});
