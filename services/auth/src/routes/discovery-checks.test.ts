// Discovery cannot advertise what the checks refuse: every advertised value is driven through the real
// /authorize and /authorize_ciba checks and accepted, and a value not advertised is refused. The /token
// members (grant types, client authentication methods) are cross-checked the same way in token's
// grant-handlers.test.ts against the same @sesame/oauth lists, which discovery.test.ts ties to this document.
import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { GRANT_TYPES, TOKEN_ENDPOINT_AUTH_METHODS } from '@sesame/oauth';
import { directory } from '@sesame/proto';
import { CompactEncrypt, SignJWT, UnsecuredJWT, exportJWK, generateKeyPair } from 'jose';
import {
  CHALLENGE,
  ISSUER,
  REDIRECT_URI,
  assertRedirected,
  assertRefused,
  parse,
  testClient,
  testDeps,
} from '../authorize/authorize-test-support';
import type { RawAuthorizeParams } from '../authorize/read-params';
import type { AuthorizationRequest } from '../authorize/types';
import { checkCibaRequest, readCibaParams } from '../ciba/parse-ciba-request';
import { cibaForm, pingClient, pollClient } from '../testing/ciba';
import { discoveryDocument } from './discovery';

const doc = discoveryDocument('https://auth.sesame.test');
const advertised = (member: string): string[] => {
  const values = doc[member];
  assert.ok(Array.isArray(values) && values.length > 0, `${member} lists values`);
  return values as string[];
};

/**
 * One row per advertised /authorize member: the parameters that use a value, what the accepted request then
 * holds, and a value not advertised with the exact refusal it gets.
 */
interface AuthorizeMember {
  member: string;
  params: (value: string) => RawAuthorizeParams;
  holds: (request: AuthorizationRequest, value: string) => boolean;
  refused: RawAuthorizeParams;
  error: [code: string, description: string];
}

const authorizeMembers: AuthorizeMember[] = [
  {
    member: 'scopes_supported',
    params: (scope) => ({ scope: scope === 'openid' ? 'openid' : `openid ${scope}` }),
    holds: (request, scope) => request.scope.includes(scope),
    // Unknown values are ignored (issue 27), so the one refusal left is a scope without openid.
    refused: { scope: 'email profile' },
    error: ['invalid_scope', 'scope must include openid'],
  },
  {
    // ts.svc.app_bound_cred is earned by session feedback, never asked for.
    member: 'acr_values_supported',
    params: (acr) => ({ acr_values: acr }),
    holds: (request, acr) => request.acrValues.length === 1 && request.acrValues[0] === acr,
    refused: { acr_values: 'ts.svc.app_bound_cred' },
    error: ['invalid_request', 'acr_values may only contain ts.svc.iac.email and ts.svc.iac.phone_number'],
  },
  {
    member: 'prompt_values_supported',
    params: (prompt) => ({ prompt }),
    holds: (request, prompt) => request.prompt === prompt,
    refused: { prompt: 'interactive' },
    error: ['invalid_request', 'prompt must be among none, login, consent, select_account'],
  },
  {
    member: 'response_types_supported',
    params: (responseType) => ({ response_type: responseType }),
    holds: () => true,
    refused: { response_type: 'token' },
    error: ['unsupported_response_type', 'only response_type code is supported'],
  },
  {
    member: 'response_modes_supported',
    params: (mode) => ({ response_mode: mode }),
    holds: () => true,
    refused: { response_mode: 'fragment' },
    error: ['invalid_request', 'only response_mode query is supported'],
  },
  {
    member: 'code_challenge_methods_supported',
    params: (method) => ({ code_challenge: CHALLENGE, code_challenge_method: method }),
    holds: (request, method) => request.codeChallengeMethod === method,
    refused: { code_challenge: CHALLENGE, code_challenge_method: 'plain' },
    error: ['invalid_request', 'code_challenge_method must be S256'],
  },
];

describe('discovery advertises only what /authorize accepts', () => {
  for (const { member, params, holds, refused, error } of authorizeMembers) {
    it(`${member}: each value is accepted; ${Object.values(refused).at(-1)} is ${error[0]}`, async () => {
      for (const value of advertised(member)) {
        const { request } = await parse(params(value));
        assert.ok(holds(request, value), `${member} ${value}`);
      }
      await assertRedirected(parse(refused), ...error);
    });
  }

  // OIDC Core 3.1.2.1: a display value the OP does not support must not be an error, so none is refused.
  it('display_values_supported: each value is accepted, and so is one not advertised', async () => {
    assert.deepEqual(advertised('display_values_supported'), ['page', 'popup', 'touch', 'wap']);
    for (const display of [...advertised('display_values_supported'), 'hologram']) {
      assert.deepEqual((await parse({ display })).request, (await parse({})).request, display);
    }
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

    it('request_object_signing_alg_values_supported: an unencrypted object of each advertised alg is processed', async () => {
      assert.deepEqual(advertised('request_object_signing_alg_values_supported'), [
        'RS256',
        'PS256',
        'ES256',
        'none',
      ]);
      const claims = {
        client_id: 'client-1',
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'openid',
        nonce: 'n-7',
      };
      for (const alg of advertised('request_object_signing_alg_values_supported')) {
        let request = new UnsecuredJWT(claims).encode();
        let clients: directory.Client[] | undefined;
        if (alg !== 'none') {
          const signer = await generateKeyPair(alg);
          const jwk = { ...(await exportJWK(signer.publicKey)), kid: 'k1', alg };
          clients = [testClient({ jwks: JSON.stringify({ keys: [jwk] }) })];
          request = await new SignJWT(claims)
            .setProtectedHeader({ alg, kid: 'k1' })
            .setIssuer('client-1')
            .setAudience(ISSUER)
            .setExpirationTime('5m')
            .sign(signer.privateKey);
        }
        const { request: parsed } = await parse({ client_id: 'client-1', request }, testDeps({ clients }));
        assert.equal(parsed.nonce, 'n-7', alg);
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
