import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { OAuthError } from '@sesame/platform';
import { readClientCredentials } from './client-credentials';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const basic = (s: string) => `Basic ${b64(s)}`;
const withNone = { allowNone: true } as const;
const secretOnly = { allowNone: false } as const;

/** Asserts the exact refusal: code, status and description. */
const refuses = (fn: () => unknown, code: string, status: number, description: string) =>
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof OAuthError);
    assert.deepEqual([err.code, err.status, err.description], [code, status, description]);
    return true;
  });

describe('readClientCredentials', () => {
  for (const options of [withNone, secretOnly]) {
    describe(`allowNone ${options.allowNone}`, () => {
      it('reads client_secret_basic', () => {
        assert.deepEqual(readClientCredentials(basic('app:s3cret'), {}, options), {
          method: 'client_secret_basic',
          clientId: 'app',
          clientSecret: 's3cret',
        });
      });

      it('form-decodes the Basic id and secret (RFC 6749 §2.3.1): %XX and + as space', () => {
        assert.deepEqual(readClientCredentials(basic('my%20app:p%3Ass+word'), {}, options), {
          method: 'client_secret_basic',
          clientId: 'my app',
          clientSecret: 'p:ss word',
        });
      });

      it('reads the secret after the first colon only', () => {
        const read = readClientCredentials(basic('app:a:b'), {}, options);
        assert.equal(read.method === 'client_secret_basic' && read.clientSecret, 'a:b');
      });

      it('reads client_secret_post', () => {
        assert.deepEqual(readClientCredentials(undefined, { client_id: 'a', client_secret: 's' }, options), {
          method: 'client_secret_post',
          clientId: 'a',
          clientSecret: 's',
        });
      });

      it('accepts the same client_id in the body next to Basic', () => {
        assert.equal(
          readClientCredentials(basic('a:s'), { client_id: 'a' }, options).method,
          'client_secret_basic',
        );
      });

      it('refuses both methods at once: invalid_request 400', () => {
        refuses(
          () => readClientCredentials(basic('a:s'), { client_secret: 's' }, options),
          'invalid_request',
          400,
          'client authenticated with both client_secret_basic and client_secret_post',
        );
      });

      it('refuses a body client_id other than the Basic one: invalid_request 400', () => {
        refuses(
          () => readClientCredentials(basic('a:s'), { client_id: 'b' }, options),
          'invalid_request',
          400,
          'client_id in the body differs from the one in the Authorization header',
        );
      });

      it('refuses a non-Basic or malformed Authorization header (bad base64 too): invalid_client 401', () => {
        for (const header of ['Bearer abc', 'Basic', 'Basic !!!notbase64', 'Basic abc=def', 'Basic YQ===']) {
          refuses(
            () => readClientCredentials(header, {}, options),
            'invalid_client',
            401,
            'unsupported or malformed Authorization header',
          );
        }
      });

      it('refuses Basic credentials without a colon, an id, a secret, or with bad %-escapes: invalid_client 401', () => {
        for (const decoded of ['no-colon', ':s', 'a:', '%E0%A4%A:s', 'a:%zz']) {
          refuses(
            () => readClientCredentials(basic(decoded), {}, options),
            'invalid_client',
            401,
            'malformed Basic credentials',
          );
        }
      });

      it('refuses a request without client_id: invalid_client 401 with the Basic challenge', () => {
        assert.throws(
          () => readClientCredentials(undefined, { client_secret: 's' }, options),
          (err: unknown) =>
            err instanceof OAuthError &&
            err.code === 'invalid_client' &&
            err.status === 401 &&
            err.headers['WWW-Authenticate'] === 'Basic realm="sesame"',
        );
      });
    });
  }

  it('allowNone: a client_id without a secret is method none (public client, PKCE)', () => {
    assert.deepEqual(readClientCredentials(undefined, { client_id: 'a' }, withNone), {
      method: 'none',
      clientId: 'a',
    });
  });

  it('without allowNone: a missing secret is invalid_client 401 (CIBA clients always have one)', () => {
    refuses(
      () => readClientCredentials(undefined, { client_id: 'a' }, secretOnly),
      'invalid_client',
      401,
      'client authentication failed',
    );
  });

  it('treats empty values as absent', () => {
    refuses(
      () => readClientCredentials(undefined, { client_id: 'a', client_secret: '' }, secretOnly),
      'invalid_client',
      401,
      'client authentication failed',
    );
    refuses(
      () => readClientCredentials(undefined, { client_id: '' }, withNone),
      'invalid_client',
      401,
      'client authentication failed',
    );
  });
});
