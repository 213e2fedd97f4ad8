import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { readSimpleQuery } from './simple-query';

/** A distinct lower-case name per number: a, b, …, z, ab, bb, … */
const letters = (n: number): string =>
  String.fromCharCode(97 + (n % 26)) + (n >= 26 ? letters(Math.floor(n / 26)) : '');

describe('readSimpleQuery: the plain queries the raw GET /authorize reads itself', () => {
  it('decodes values as express’s query parser does (+ is a space, then percent-decoding), keeping only /authorize parameters', () => {
    assert.deepEqual(
      readSimpleQuery(
        '/authorize?client_id=c1&redirect_uri=https%3A%2F%2Frp.example%2Fcb&scope=openid+email&state=&prompt&utm_source=x&login_hint=a%2Bb%40example.com',
      ),
      {
        client_id: 'c1',
        redirect_uri: 'https://rp.example/cb',
        scope: 'openid email',
        state: '',
        prompt: '',
        login_hint: 'a+b@example.com',
      },
    );
    assert.deepEqual(readSimpleQuery('/authorize'), {});
    assert.deepEqual(readSimpleQuery('/authorize?&&state=s&'), { state: 's' });
    const hundred = Array.from({ length: 100 }, (_, i) => `${letters(i)}=1`).join('&');
    assert.deepEqual(readSimpleQuery(`/authorize?${hundred}`), {});
  });

  const notPlain: Array<[string, string]> = [
    ['a repeated parameter', '/authorize?state=a&state=b'],
    ['a repeated unknown name', '/authorize?x=1&x=2'],
    ['a bracketed name', '/authorize?client_id[a]=1'],
    ['an encoded name', '/authorize?client%5Fid=1'],
    ['an upper-case name', '/authorize?Client_Id=1'],
    ['a value that does not decode', '/authorize?state=%E0%A4%A'],
    ['raw non-ASCII', '/authorize?state=é'],
    ['a fragment', '/authorize?state=a#b'],
    ['a space', '/authorize?state=a b'],
    [
      'more than 100 pairs',
      `/authorize?${Array.from({ length: 101 }, (_, i) => `${letters(i)}=1`).join('&')}`,
    ],
  ];
  for (const [what, target] of notPlain) {
    it(`leaves ${what} to express`, () => {
      assert.equal(readSimpleQuery(target), undefined);
    });
  }
});
