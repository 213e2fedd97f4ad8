// Test support only: an RP's calls to token (code exchange, refresh, revoke, introspect, userinfo) over HTTP.
import { sha256 } from '@sesame/platform';
import type { grants } from '@sesame/proto';
import { sampleClaims } from './sample-claims';
import { type TokenAnswer, type TokenHarness, postToken } from './token-harness';

export const RP_REDIRECT = 'https://rp.example/cb';
const VERIFIER = 'dBjftJeZ4CK-P0mWp1u3jJqzdUFtFhPq0MDbP8hGdXk';

export interface RpClient {
  clientId: string;
  secret?: string;
}

const form = (client: RpClient) => ({
  client_id: client.clientId,
  ...(client.secret ? { client_secret: client.secret } : {}),
});

export function rpCalls(h: TokenHarness) {
  const issueCode = (client: RpClient, over: Partial<grants.IssueCodeRequest> = {}) =>
    h.grants
      .issueCode({
        tenantId: 'tenant-1',
        appId: `app-${client.clientId}`,
        clientId: client.clientId,
        redirectUri: RP_REDIRECT,
        scope: 'openid email phone offline_access',
        codeChallenge: '',
        codeChallengeMethod: '',
        dpopJkt: '',
        flowId: 'flow-rp',
        claims: sampleClaims({
          email: 'j@example.com',
          emailVerified: true,
          phoneNumber: '+15555550100',
          phoneNumberVerified: false,
        }),
        login: { flowId: 'flow-rp', authenticatorId: '', deviceId: 'device-1', loginAt: 1 },
        ...over,
      })
      .then((r) => r.code);
  return {
    issueCode,
    /** Signs in (a code issued and redeemed; with PKCE for a public client): the token response. */
    async signIn(client: RpClient, over: Partial<grants.IssueCodeRequest> = {}): Promise<TokenAnswer> {
      const pkce = client.secret ? {} : { codeChallenge: sha256(VERIFIER), codeChallengeMethod: 'S256' };
      const code = await issueCode(client, { ...pkce, ...over });
      return h.post({
        grant_type: 'authorization_code',
        code,
        redirect_uri: RP_REDIRECT,
        ...form(client),
        ...(client.secret ? {} : { code_verifier: VERIFIER }),
      });
    },
    refresh: (client: RpClient, refreshToken: unknown, extra: Record<string, string> = {}) =>
      h.post({ grant_type: 'refresh_token', refresh_token: String(refreshToken), ...form(client), ...extra }),
    revoke: (client: RpClient, token: unknown, extra: Record<string, string> = {}) =>
      postToken(`${h.url}/revoke`, { token: String(token), ...form(client), ...extra }),
    introspect: (client: RpClient, token: unknown, extra: Record<string, string> = {}) =>
      postToken(`${h.url}/introspect`, { token: String(token), ...form(client), ...extra }),
    async userinfo(authorization?: string, method: 'GET' | 'POST' = 'GET'): Promise<TokenAnswer> {
      const res = await fetch(`${h.url}/userinfo`, {
        method,
        headers: authorization === undefined ? {} : { authorization },
      });
      return {
        status: res.status,
        headers: res.headers,
        body: (await res.json()) as Record<string, unknown>,
      };
    },
  };
}
