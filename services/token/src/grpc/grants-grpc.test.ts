import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { GrpcStatus } from '@sesame/platform';
import type { grants } from '@sesame/proto';
import { startedForSuite } from '@sesame/testing/suite';
import { backchannelRequest } from '../testing/backchannel-request';
import { sampleClaims } from '../testing/sample-claims';
import { type TokenHarness, clientCredentialsForm, startTokenHarness } from '../testing/token-harness';

describe('Grants gRPC', () => {
  const h = startedForSuite(startTokenHarness);

  /** The token request that redeems `code` as the confidential client c. */
  const codeExchange = (code: string) => ({
    grant_type: 'authorization_code',
    code,
    redirect_uri: 'https://rp.example/cb',
    client_id: 'c',
    client_secret: 's',
  });

  const issueRequest = (over: Partial<grants.IssueCodeRequest> = {}): grants.IssueCodeRequest => ({
    tenantId: 't',
    appId: 'a',
    clientId: 'c',
    redirectUri: 'https://rp.example/cb',
    scope: 'openid',
    codeChallenge: '',
    codeChallengeMethod: '',
    dpopJkt: '',
    flowId: 'f',
    claims: sampleClaims(),
    ...over,
  });

  it('IssueCode returns a 256-bit code and its lifetime', async () => {
    const res = await h.grants.issueCode(issueRequest());
    assert.equal(res.expiresIn, 60);
    assert.equal(Buffer.from(res.code, 'base64url').length, 32);
  });

  it('IssueCode refuses a PKCE method other than S256: INVALID_ARGUMENT', async () => {
    await assert.rejects(
      h.grants.issueCode(issueRequest({ codeChallenge: 'x'.repeat(43), codeChallengeMethod: 'plain' })),
      { code: GrpcStatus.INVALID_ARGUMENT },
    );
  });

  it('IssueCode refuses a challenge without its method: INVALID_ARGUMENT', async () => {
    await assert.rejects(h.grants.issueCode(issueRequest({ codeChallenge: 'x'.repeat(43) })), {
      code: GrpcStatus.INVALID_ARGUMENT,
    });
  });

  it('IssueCode refuses a claim set without sub or without svc_info devices: INVALID_ARGUMENT', async () => {
    await assert.rejects(h.grants.issueCode(issueRequest({ claims: sampleClaims({ sub: '' }) })), {
      code: GrpcStatus.INVALID_ARGUMENT,
    });
    await assert.rejects(h.grants.issueCode(issueRequest({ claims: sampleClaims({ svcInfo: undefined }) })), {
      code: GrpcStatus.INVALID_ARGUMENT,
    });
    await assert.rejects(h.grants.issueCode(issueRequest({ claims: undefined })), {
      code: GrpcStatus.INVALID_ARGUMENT,
    });
  });

  it('StartBackchannel keeps an explicit expires_in', async () => {
    const res = await h.grants.startBackchannel(backchannelRequest({ expiresIn: 120 }));
    assert.equal(res.expiresIn, 120);
    assert.equal(res.interval, 1);
  });

  it('MarkBackchannelOpened / CompleteBackchannel / DenyBackchannel answer NOT_FOUND for an unknown auth_req_id', async () => {
    await assert.rejects(h.grants.markBackchannelOpened({ authReqId: 'nope' }), {
      code: GrpcStatus.NOT_FOUND,
    });
    await assert.rejects(h.grants.completeBackchannel({ authReqId: 'nope', claims: sampleClaims() }), {
      code: GrpcStatus.NOT_FOUND,
    });
    await assert.rejects(h.grants.denyBackchannel({ authReqId: 'nope', reason: '' }), {
      code: GrpcStatus.NOT_FOUND,
    });
  });

  it('answers FAILED_PRECONDITION for transitions of an expired request', async () => {
    const { authReqId } = await h.grants.startBackchannel(backchannelRequest({ expiresIn: 10 }));
    h.clock.advance(10_000);
    await assert.rejects(h.grants.markBackchannelOpened({ authReqId }), {
      code: GrpcStatus.FAILED_PRECONDITION,
    });
  });

  it('IntrospectAccessToken answers active false for an unknown or empty token', async () => {
    for (const accessToken of ['', 'unknown-token']) {
      const res = await h.grants.introspectAccessToken({ accessToken });
      assert.deepEqual(res, {
        active: false,
        tenantId: '',
        clientId: '',
        credentialsId: '',
        scope: '',
        expiresAt: 0,
        sub: '',
        kind: '',
        appId: '',
        login: undefined,
      });
    }
  });

  it('IntrospectAccessToken answers active false once the token expired', async () => {
    h.directory.addApiCredentials('cred-exp', 'secret-exp');
    const res = await h.post(clientCredentialsForm('cred-exp', 'secret-exp'));
    const accessToken = String(res.body.access_token);
    assert.equal((await h.grants.introspectAccessToken({ accessToken })).active, true);
    h.clock.advance(3600_000);
    assert.equal((await h.grants.introspectAccessToken({ accessToken })).active, false);
  });

  it('IntrospectAccessToken of a user token carries sub, client and tenant', async () => {
    h.directory.addClient({ clientId: 'c', secret: 's', tenantId: 't' });
    const { code } = await h.grants.issueCode(issueRequest());
    const res = await h.post(codeExchange(code));
    const info = await h.grants.introspectAccessToken({ accessToken: String(res.body.access_token) });
    assert.equal(info.active, true);
    assert.equal(info.sub, sampleClaims().sub);
    assert.equal(info.clientId, 'c');
    assert.equal(info.tenantId, 't');
    assert.equal(info.credentialsId, '');
    assert.equal(info.scope, 'openid');
  });

  it('IntrospectAccessToken of a code grant names its app, kind user and the login the code came from', async () => {
    h.directory.addClient({ clientId: 'c', secret: 's', tenantId: 't' });
    const login = {
      flowId: 'flow-9',
      authenticatorId: 'cred-9',
      deviceId: 'dev-9',
      loginAt: 1_700_000_000_123,
    };
    const { code } = await h.grants.issueCode(issueRequest({ login }));
    const res = await h.post(codeExchange(code));
    const info = await h.grants.introspectAccessToken({ accessToken: String(res.body.access_token) });
    assert.equal(info.kind, 'user');
    assert.equal(info.appId, 'a');
    assert.deepEqual(info.login, login);
  });

  it('IntrospectAccessToken of a client_credentials token says kind api, with no app and no login', async () => {
    h.directory.addApiCredentials('cred-kind', 'secret-kind');
    const res = await h.post(clientCredentialsForm('cred-kind', 'secret-kind'));
    const info = await h.grants.introspectAccessToken({ accessToken: String(res.body.access_token) });
    assert.equal(info.active, true);
    assert.equal(info.kind, 'api');
    assert.equal(info.appId, '');
    assert.equal(info.login, undefined);
  });
});
