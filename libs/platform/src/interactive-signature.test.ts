import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import {
  interactiveAuthorization,
  interactiveSignature,
  interactiveSigningString,
  parseInteractiveAuthorization,
} from './interactive-signature';

// The worked example of docs/interactive-init.md: if this test changes, change the document with it.
const TOKEN = 'at_3q2rJ9XoV7mPZk1fGJm0cQ8sYt4uWbNe5aLhDvKp';
const SECRET = 'sk_demo_Xy7Pq2Lm9Rt4Vw8Zb1Nc6Hd3Fg5Jk0Ms';
const BODY =
  '{"redirect_uri":"https://shop.example/devices/done","purpose":"device_enrollment","state":"s-42"}';
const TIMESTAMP = 1767225600;
const NONCE = 'q8VdYc3m2LkP0sT9xW1zAg';
const BODY_HASH = 'uLVu_dCtIFhfr_d507Qaq7nFCaEgnh6j0z_5C7pYDnQ';
const SIGNATURE = 'oMOfJ6BQvhjp4zRVuVaAPmo6pG4YG0IhN_Z8ucmVyjY';
const HEADER = `Sesame AccessToken ${TOKEN}; t=${TIMESTAMP},n=${NONCE},s=${SIGNATURE}`;
const EXAMPLE = {
  method: 'POST',
  path: '/api/v1/interactive/init',
  timestamp: TIMESTAMP,
  nonce: NONCE,
  accessToken: TOKEN,
  body: BODY,
};

describe('interactive init Authorization scheme', () => {
  it('recomputes the worked example of the docs: the signing string, its HMAC-SHA256, the header', () => {
    assert.equal(
      interactiveSigningString(EXAMPLE),
      ['SESAME-INTERACTIVE-V1', 'POST', '/api/v1/interactive/init', TIMESTAMP, NONCE, TOKEN, BODY_HASH].join(
        '\n',
      ),
    );
    assert.equal(interactiveSignature(EXAMPLE, SECRET), SIGNATURE);
    assert.equal(interactiveAuthorization(EXAMPLE, SECRET), HEADER);
    const here = dirname(fileURLToPath(import.meta.url));
    const doc = readFileSync(join(here, '../../../docs/interactive-init.md'), 'utf8');
    for (const value of [TOKEN, SECRET, BODY, String(TIMESTAMP), NONCE, BODY_HASH, SIGNATURE, HEADER])
      assert.ok(doc.includes(value), `the docs show ${value}`);
  });

  it('changes with every part it covers', () => {
    const variants = [
      { method: 'PUT' },
      { path: '/api/v1/interactive/init2' },
      { timestamp: TIMESTAMP + 1 },
      { nonce: `${NONCE}x` },
      { accessToken: `${TOKEN}x` },
      { body: `${BODY} ` },
    ];
    for (const change of variants)
      assert.notEqual(
        interactiveSignature({ ...EXAMPLE, ...change }, SECRET),
        SIGNATURE,
        JSON.stringify(change),
      );
    assert.notEqual(interactiveSignature(EXAMPLE, `${SECRET}x`), SIGNATURE);
  });

  it('fills in a fresh nonce and the current time when not given', () => {
    const a = parseInteractiveAuthorization(
      interactiveAuthorization({ accessToken: TOKEN, body: BODY }, SECRET),
    );
    const b = parseInteractiveAuthorization(
      interactiveAuthorization({ accessToken: TOKEN, body: BODY }, SECRET),
    );
    assert.ok(a && b);
    assert.notEqual(a.nonce, b.nonce);
    assert.ok(Math.abs(a.timestamp - Date.now() / 1000) < 5);
  });

  it('parses exactly the defined shape, the scheme word in any case', () => {
    const parts = { accessToken: TOKEN, timestamp: TIMESTAMP, nonce: NONCE, signature: SIGNATURE };
    assert.deepEqual(parseInteractiveAuthorization(HEADER), parts);
    assert.deepEqual(parseInteractiveAuthorization(`sesame${HEADER.slice(6)}`), parts);
  });

  it('refuses every other shape', () => {
    const sig = `t=${TIMESTAMP},n=${NONCE},s=${SIGNATURE}`;
    for (const bad of [
      undefined,
      '',
      `Bearer ${TOKEN}`,
      `Sesame ${TOKEN}; ${sig}`,
      `Sesame accesstoken ${TOKEN}; ${sig}`,
      `Sesame AccessToken ${TOKEN};${sig}`,
      `Sesame AccessToken ${TOKEN} ; ${sig}`,
      `Sesame  AccessToken ${TOKEN}; ${sig}`,
      `Sesame AccessToken ${TOKEN}; ${sig}=`,
      `Sesame AccessToken ${TOKEN}; ${sig.slice(0, -1)}`,
      `Sesame AccessToken ${TOKEN}; ${sig} `,
      `Sesame AccessToken ; ${sig}`,
      `Other AccessToken ${TOKEN}; ${sig}`,
      `Sesame AccessToken ${TOKEN}; ${sig}; extra`,
      `Sesame AccessToken ${TOKEN}; ${SIGNATURE}`,
      `Sesame AccessToken ${TOKEN}; T=${TIMESTAMP},n=${NONCE},s=${SIGNATURE}`,
      `Sesame AccessToken ${TOKEN}; n=${NONCE},t=${TIMESTAMP},s=${SIGNATURE}`,
      `Sesame AccessToken ${TOKEN}; t=${TIMESTAMP},n=short,s=${SIGNATURE}`,
      `Sesame AccessToken ${TOKEN}; t=176722560,n=${NONCE},s=${SIGNATURE}`,
    ]) {
      assert.equal(parseInteractiveAuthorization(bad), undefined, String(bad));
    }
  });
});
