// Discovery cannot advertise what the checks refuse: every advertised value is driven through the real
// /authorize and /authorize_ciba checks and accepted, and a value not advertised is refused. The /token
// members (grant types, client authentication methods) are cross-checked the same way in token's
// grant-handlers.test.ts against the same @sesame/oauth lists, which discovery.test.ts ties to this document.
import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { GRANT_TYPES, TOKEN_ENDPOINT_AUTH_METHODS } from '@sesame/oauth';
import { directory } from '@sesame/proto';
import { CompactEncrypt, generateKeyPair } from 'jose';
import {
  CHALLENGE,
  REDIRECT_URI,
  assertRedirected,
  assertRefused,
  parse,
  testDeps,
} from '../authorize/authorize-test-support';
import { cibaForm, pingClient, pollClient } from '../ciba/ciba-test-support';
import { checkCibaRequest, readCibaParams } from '../ciba/parse-ciba-request';
import { discoveryDocument } from './discovery';

const doc = discoveryDocument('https://auth.sesame.test');
const advertised = (member: string): string[] => {
  const values = doc[member];
  assert.ok(Array.isArray(values) && values.length > 0, `${member} lists values`);
  return values as string[];
};

describe('discovery advertises only what /authorize accepts', () => {
  it('scopes_supported: each scope is accepted; another is invalid_scope', async () => {
    for (const scope of advertised('scopes_supported')) {
      const { request } = await parse({ scope: scope === 'openid' ? 'openid' : `openid ${scope}` });
      assert.ok(request.scope.includes(scope), scope);
    }
    await assertRedirected(
      parse({ scope: 'openid profile' }),
      'invalid_scope',
      `scope may only contain ${advertised('scopes_supported').join(', ')}`,
    );
  });

  it('acr_values_supported: each value is accepted; ts.svc.app_bound_cred (earned, not asked) is refused', async () => {
    for (const acr of advertised('acr_values_supported')) {
      assert.deepEqual((await parse({ acr_values: acr })).request.acrValues, [acr]);
    }
    await assertRedirected(
      parse({ acr_values: 'ts.svc.app_bound_cred' }),
      'invalid_request',
      'acr_values may only contain ts.svc.iac.email and ts.svc.iac.phone_number',
    );
  });

  it('prompt_values_supported: each value is accepted; consent is refused', async () => {
    for (const prompt of advertised('prompt_values_supported')) {
      assert.equal((await parse({ prompt })).request.prompt, prompt);
    }
    await assertRedirected(parse({ prompt: 'consent' }), 'invalid_request', 'only prompt login is supported');
  });

  it('display_values_supported: each value is accepted; popup is refused', async () => {
    for (const display of advertised('display_values_supported')) await parse({ display });
    await assertRedirected(parse({ display: 'popup' }), 'invalid_request', 'only display page is supported');
  });

  it('response_types_supported: each value is accepted; token is unsupported_response_type', async () => {
    for (const responseType of advertised('response_types_supported')) {
      await parse({ response_type: responseType });
    }
    await assertRedirected(
      parse({ response_type: 'token' }),
      'unsupported_response_type',
      'only response_type code is supported',
    );
  });

  it('response_modes_supported: each value is accepted; fragment is refused', async () => {
    for (const mode of advertised('response_modes_supported')) await parse({ response_mode: mode });
    await assertRedirected(
      parse({ response_mode: 'fragment' }),
      'invalid_request',
      'only response_mode query is supported',
    );
  });

  it('code_challenge_methods_supported: each method is accepted; plain is refused', async () => {
    for (const method of advertised('code_challenge_methods_supported')) {
      const { request } = await parse({ code_challenge: CHALLENGE, code_challenge_method: method });
      assert.equal(request.codeChallengeMethod, method);
    }
    await assertRedirected(
      parse({ code_challenge: CHALLENGE, code_challenge_method: 'plain' }),
      'invalid_request',
      'code_challenge_method must be S256',
    );
  });

  describe('request_object_encryption_*', () => {
    let key: Awaited<ReturnType<typeof generateKeyPair>>;
    beforeAll(async () => {
      key = await generateKeyPair('RSA-OAEP-256');
    });
    const requestObject = (alg: string, enc: string) =>
      new CompactEncrypt(
        new TextEncoder().encode(
          JSON.stringify({
            client_id: 'client-1',
            redirect_uri: REDIRECT_URI,
            response_type: 'code',
            scope: 'openid',
          }),
        ),
      )
        .setProtectedHeader({ alg, enc })
        .encrypt(key.publicKey);

    it('each advertised alg and enc passes the request object check', async () => {
      for (const alg of advertised('request_object_encryption_alg_values_supported')) {
        for (const enc of advertised('request_object_encryption_enc_values_supported')) {
          const params = { client_id: 'client-1', request: await requestObject(alg, enc) };
          await parse(params, testDeps({ key: key.privateKey }));
        }
      }
    });

    it('an alg not advertised is invalid_request_object', async () => {
      const header = Buffer.from(JSON.stringify({ alg: 'RSA1_5', enc: 'A256GCM' })).toString('base64url');
      await assertRefused(parse({ request: [header, 'a', 'b', 'c', 'd'].join('.') }), {
        kind: 'redirect',
        code: 'invalid_request_object',
        description: 'request must be encrypted with RSA-OAEP-256 to the enc key of /jwks',
        redirectUri: REDIRECT_URI,
        state: 'st-1',
      });
    });
  });
});

describe('discovery advertises only what /authorize_ciba accepts', () => {
  const clientOfMode: Record<string, directory.Client> = { poll: pollClient, ping: pingClient };

  it('backchannel_token_delivery_modes_supported: a client of each mode may use CIBA; one of no mode may not', () => {
    for (const mode of advertised('backchannel_token_delivery_modes_supported')) {
      const client = clientOfMode[mode];
      assert.ok(client, `a test client for mode ${mode}`);
      const extra: Record<string, string> = mode === 'ping' ? { client_notification_token: 'nt-1' } : {};
      assert.deepEqual(checkCibaRequest(readCibaParams(cibaForm(extra)), client).scope, ['openid', 'email']);
    }
    const noMode = { ...pollClient, ciba: undefined };
    assert.throws(
      () => checkCibaRequest(readCibaParams(cibaForm()), noMode),
      (err: { code?: string }) => err.code === 'unauthorized_client',
    );
    assert.equal(directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_POLL, pollClient.ciba?.mode);
  });
});

describe('discovery lists the /token values of @sesame/oauth (cross-checked against /token by token tests)', () => {
  it('grant_types_supported and token_endpoint_auth_methods_supported are those lists', () => {
    assert.deepEqual(advertised('grant_types_supported'), [...GRANT_TYPES]);
    assert.deepEqual(advertised('token_endpoint_auth_methods_supported'), [...TOKEN_ENDPOINT_AUTH_METHODS]);
  });
});
