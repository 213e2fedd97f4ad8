import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { OAuthError, wellFormedUrlencoded } from '@sesame/platform';
import { readFormParams } from './read-form-params';

/** What the form means by URLSearchParams (the general way), with the same rules: no repeats, '' absent. */
function byUrlSearchParams(text: string): Record<string, string> | 'repeated' {
  const params: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(params, name)) return 'repeated';
    params[name] = value;
  }
  for (const name of Object.keys(params)) if (params[name] === '') delete params[name];
  return params;
}

function read(text: string): Record<string, string> | 'repeated' {
  try {
    return readFormParams(text, undefined).params;
  } catch (err) {
    if (err instanceof OAuthError && /more than once/.test(err.message)) return 'repeated';
    throw err;
  }
}

describe('readFormParams', () => {
  it('reads a well-formed form exactly as URLSearchParams does, escapes and `+` included', () => {
    const plain = [
      'a',
      'b',
      'client_id',
      'x',
      '=',
      '&',
      '&&',
      '==',
      'é',
      '€',
      '.',
      '-',
      '~',
      ':',
      '/',
      ' ',
      '',
    ];
    const escaped = ['+', '++', '%20', '%2B', '%3D', '%26', '%3A', '%25', '%E2%82%AC', '%c3%a9', '%00'];
    const pieces = [...plain, ...escaped];
    let seed = 7;
    const pick = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return pieces[(seed >>> 16) % pieces.length]!;
    };
    for (let n = 0; n < 20000; n++) {
      const text = Array.from({ length: 1 + (n % 12) }, pick).join('');
      assert.deepEqual(read(text), byUrlSearchParams(text), JSON.stringify(text));
    }
  });

  it('reads the shapes a client sends: empty pairs, no `=`, `=` in a value, a repeated name', () => {
    assert.deepEqual(read('grant_type=client_credentials&scope=a'), {
      grant_type: 'client_credentials',
      scope: 'a',
    });
    assert.deepEqual(read('&a=1&&b=2&'), { a: '1', b: '2' });
    assert.deepEqual(read('a&b=&c==x=y'), { c: '=x=y' });
    assert.deepEqual(read('=v&a=1'), { '': 'v', a: '1' });
    assert.equal(read('a=1&b=2&a=3'), 'repeated');
    assert.equal(read('a&a'), 'repeated');
  });

  it('decodes escapes, `+` and characters beyond the BMP the general way', () => {
    assert.deepEqual(read('a=x%20y&b=p+q'), { a: 'x y', b: 'p q' });
    assert.deepEqual(read('a=%F0%9F%98%80&b=😀'), { a: '😀', b: '😀' });
    assert.deepEqual(read('a=%E2%82%AC'), { a: '€' });
  });

  it('refuses what wellFormedUrlencoded refuses, before any repeated name, on both ways of reading', () => {
    const broken = [
      'a=%zz',
      '%zz=1',
      'a=%',
      'a=%4',
      'a=1%',
      'a=%E2%82',
      'a=%E2%82=%AC',
      'a=%FF',
      'a=%ED%A0%80',
    ];
    for (const text of broken) {
      assert.equal(wellFormedUrlencoded(text), false, text);
      for (const body of [text, `${text}&b=😀`, `a=0&${text}`, `${text}&a=0&b=1&b=2`])
        assert.throws(() => readFormParams(body, undefined), /not well-formed/, body);
    }
    assert.throws(() => readFormParams('a=\ufffd', undefined), /not well-formed/);
    assert.throws(() => readFormParams('a=\ufffd&a=1', undefined), /not well-formed/);
  });

  it('names only known parameters when one repeats', () => {
    assert.throws(
      () => readFormParams('scope=a&scope=b', undefined),
      /parameter scope is included more than once/,
    );
    assert.throws(
      () => readFormParams('mine=a&mine=b', undefined),
      /^.*a parameter is included more than once/,
    );
  });
});
