import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import {
  REDIRECT_URI,
  assertInvalidRequest,
  assertRedirected,
  assertRefused,
  parse,
  testDeps,
} from './authorize-test-support';
import { parseAuthorizeRequest } from './parse-authorize-request';

const page = (code: string, description: string) => ({ kind: 'page' as const, code, description });

describe('parseAuthorizeRequest: the request as a whole', () => {
  it('returns the client and the request with only the given parameters', async () => {
    const { client, request } = await parse({ nonce: 'n-1' });
    assert.equal(client.clientId, 'client-1');
    assert.deepEqual(request, {
      clientId: 'client-1',
      redirectUri: REDIRECT_URI,
      scope: ['openid'],
      state: 'st-1',
      nonce: 'n-1',
      acrValues: [],
      uiLocales: [],
    });
  });

  it('treats a parameter sent without a value as omitted (RFC 6749 3.1)', async () => {
    const { request } = await parse({ prompt: '', state: '', display: '', nonce: '' });
    assert.deepEqual(request, (await parse({ state: undefined })).request);
  });

  it('ignores unknown parameters, even repeated ones', async () => {
    const { request } = await parse({ foo: ['a', 'b'], bar: 'x' });
    assert.deepEqual(request.scope, ['openid']);
  });

  it('accepts and ignores max_age and id_token_hint', async () => {
    const { request } = await parse({ max_age: 'not a number', id_token_hint: 'not.a.token' });
    assert.deepEqual(request, (await parse({})).request);
  });

  it('takes a one-element array as the single value', async () => {
    const { request } = await parse({ scope: ['openid email'] });
    assert.deepEqual(request.scope, ['openid', 'email']);
  });
});

describe('parseAuthorizeRequest: error page until the redirect target is trusted', () => {
  it('refuses a missing client_id with a page', async () => {
    await assertRefused(parse({ client_id: undefined }), page('invalid_request', 'client_id is required'));
  });

  it('refuses an unknown client_id with a page, without echoing it', async () => {
    await assertRefused(
      parse({ client_id: '<script>' }),
      page('invalid_client', 'client_id is not a registered client'),
    );
  });

  it('refuses a repeated client_id with a page', async () => {
    await assertRefused(
      parse({ client_id: ['client-1', 'client-1'] }),
      page('invalid_request', 'client_id must be a single value'),
    );
  });

  it('refuses a missing redirect_uri with a page', async () => {
    await assertRefused(
      parse({ redirect_uri: undefined }),
      page('invalid_request', 'redirect_uri is required'),
    );
  });

  it('refuses a repeated redirect_uri with a page', async () => {
    await assertRefused(
      parse({ redirect_uri: [REDIRECT_URI, REDIRECT_URI] }),
      page('invalid_request', 'redirect_uri must be a single value'),
    );
  });

  it('refuses an unregistered redirect_uri with a page', async () => {
    await assertRefused(
      parse({ redirect_uri: 'https://evil.example/callback' }),
      page('invalid_request', 'redirect_uri is not registered for this client'),
    );
  });

  it('matches redirect_uri exactly: a trailing slash or other case is not registered', async () => {
    for (const uri of [`${REDIRECT_URI}/`, REDIRECT_URI.toUpperCase(), `${REDIRECT_URI}?x=1`]) {
      await assertRefused(
        parse({ redirect_uri: uri }),
        page('invalid_request', 'redirect_uri is not registered for this client'),
      );
    }
  });

  it('checks the target before anything else: a bad response_type with a foreign redirect_uri is a page', async () => {
    await assertRefused(
      parse({ redirect_uri: 'https://evil.example/', response_type: 'token' }),
      page('invalid_request', 'redirect_uri is not registered for this client'),
    );
  });

  it('propagates a directory failure unchanged (the caller answers server_error)', async () => {
    const deps = { ...testDeps(), getClient: () => Promise.reject(new Error('directory down')) };
    await assert.rejects(parseAuthorizeRequest({ client_id: 'client-1' }, deps), /directory down/);
  });
});

describe('parseAuthorizeRequest: redirect errors once the target is trusted', () => {
  it('redirects to the other registered URI when that one is named', async () => {
    await assertRefused(parse({ redirect_uri: 'https://rp.example/other', response_type: 'token' }), {
      kind: 'redirect',
      code: 'unsupported_response_type',
      description: 'only response_type code is supported',
      redirectUri: 'https://rp.example/other',
      state: 'st-1',
    });
  });

  it('refuses a repeated parameter with invalid_request naming it', async () => {
    await assertInvalidRequest({ scope: ['openid', 'openid'] }, 'scope must be a single value');
  });

  it('refuses a nested value (express extended query a[b]=c) like a repeated one', async () => {
    await assertInvalidRequest({ nonce: { a: 'b' } }, 'nonce must be a single value');
  });

  it('redirects without state when state itself is repeated', async () => {
    await assertRefused(parse({ state: ['a', 'b'] }), {
      kind: 'redirect',
      code: 'invalid_request',
      description: 'state must be a single value',
      redirectUri: REDIRECT_URI,
    });
  });

  it('refuses a missing response_type with invalid_request', async () => {
    await assertInvalidRequest({ response_type: undefined }, 'response_type is required');
  });

  it('refuses response_type other than code with unsupported_response_type', async () => {
    for (const responseType of ['token', 'code id_token', 'id_token']) {
      await assertRedirected(
        parse({ response_type: responseType }),
        'unsupported_response_type',
        'only response_type code is supported',
      );
    }
  });

  it('accepts response_mode query and refuses any other with invalid_request', async () => {
    await parse({ response_mode: 'query' });
    for (const mode of ['fragment', 'form_post']) {
      await assertInvalidRequest({ response_mode: mode }, 'only response_mode query is supported');
    }
  });

  it('accepts every display value (page, popup, touch, wap) and an unknown one: the same pages (OIDC Core 3.1.2.1)', async () => {
    const plain = (await parse({})).request;
    for (const display of ['page', 'popup', 'touch', 'wap', 'tv'])
      assert.deepEqual((await parse({ display })).request, plain, display);
  });

  it('takes max_age as whole seconds (0 included); a malformed one is ignored', async () => {
    assert.equal((await parse({ max_age: '0' })).request.maxAge, 0);
    assert.equal((await parse({ max_age: '3600' })).request.maxAge, 3600);
    for (const maxAge of ['-1', '1.5', '1e3', ' 60', 'x'])
      assert.equal((await parse({ max_age: maxAge })).request.maxAge, undefined, maxAge);
  });
});
