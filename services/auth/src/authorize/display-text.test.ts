import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { OAuthError } from '@sesame/platform';
import { checkBindingMessage } from '../ciba/check-binding-message';
import { isAuthorizeProblem } from './authorize-error';
import { checkCustomMessage } from './check-custom-message';

// Issue 26 finding 9: text a person compares could be spoofed with invisible or reordering characters.
const hostile: Array<[string, string]> = [
  ['a right-to-left override (Cf)', 'Pay 100\u202E00 CHF'],
  ['a left-to-right isolate (Cf)', 'Code \u2066AB12\u2069'],
  ['a zero-width space (Cf)', 'Code A\u200BB12'],
  ['a zero-width joiner (Cf)', 'Code A\u200DB12'],
  ['a byte order mark (Cf)', '\uFEFFCode AB12'],
  ['a line separator (Zl)', 'Code AB12\u2028Approve'],
  ['a paragraph separator (Zp)', 'Code AB12\u2029Approve'],
  ['a private-use character (Co)', 'Code \uE000AB12'],
];

describe('text shown to people refuses hidden characters', () => {
  it.each(hostile)('binding_message with %s: invalid_binding_message naming the field', (_what, text) => {
    assert.throws(
      () => checkBindingMessage(text),
      (err) =>
        err instanceof OAuthError &&
        err.code === 'invalid_binding_message' &&
        /binding_message/.test(err.description),
    );
  });

  it.each(hostile)('svc_custom_message with %s: invalid_request naming the field', (_what, text) => {
    assert.throws(
      () => checkCustomMessage(text),
      (err) =>
        isAuthorizeProblem(err) &&
        err.code === 'invalid_request' &&
        /svc_custom_message/.test(err.description),
    );
  });

  it('keeps visible text of any script, accents and emoji', () => {
    for (const text of ['Code 4F2K', 'Zahlung an Müller: 12,50 €', 'مرحبا 123', '支付 ¥100', 'Thanks 👍🏽']) {
      assert.equal(checkBindingMessage(text), text);
      assert.equal(checkCustomMessage(text), text);
    }
  });
});
