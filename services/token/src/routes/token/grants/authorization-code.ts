import { FAPI2_MAX_CODE_LIFETIME_S, isFapi2, isMtlsAuthMethod, oauthErrors } from '@sesame/oauth';
import { directory as directoryProto } from '@sesame/proto';
import type { TokenDeps } from '../../../deps';
import type { Client } from '../../../directory/directory';
import type { CodeBinding, FoundCode } from '../../../grants/codes';
import { grantedScope, includesOfflineAccess, refreshLifetimesOf } from '../../../grants/granted-scope';
import { issueUserTokens } from '../../../grants/issue-tokens';
import { authenticateClient, mtlsOf, throttled } from '../checks/authenticate-client';
import { certificateBinding } from '../checks/certificate-binding';
import { checkCodeClient } from '../checks/check-code-client';
import { checkBoundKey, checkDpop } from '../checks/check-dpop';
import { checkPkce } from '../checks/check-pkce';
import { checkRedirectUri } from '../checks/check-redirect-uri';
import { readClientCredentials } from '../checks/read-client-credentials';
import { requireParam } from '../checks/read-form-params';
import type { GrantHandler, TokenRequest } from '../token-request';

/**
 * grant_type=authorization_code: confidential clients with their secret or, for a code whose request carried
 * a PKCE challenge, with the code_verifier alone (spec 5.1); public clients with PKCE S256.
 */
export function authorizationCodeGrant(deps: TokenDeps): GrantHandler {
  return async (request) => {
    const credentials = readClientCredentials(request);
    const client = await throttled(deps, request, credentials.clientId, (directory) =>
      authenticateClient(directory, credentials, {
        allowPublic: true,
        allowSecretless: true,
        assertions: deps.assertions,
        mtls: mtlsOf(deps, request),
      }),
    );
    const jkt = await checkDpop(deps, request, client);
    const binding = certificateBinding(client, request);
    const code = requireParam(request, 'code');
    const found = await deps.codes.find(code);
    // A client_id alone is secretless unless its certificate authenticated it (mutual TLS).
    const secretless = credentials.method === 'none' && !isMtlsAuthMethod(client.tokenEndpointAuthMethod);
    if (!found) return rejectReplay(deps, request, client, code, secretless);
    checkBinding(found.grant, client, request, secretless);
    checkFapi2CodeLife(found.grant, client, deps.clock.now());
    checkBoundKey(found.grant.dpopJkt, jkt, 'the code');
    if (!(await deps.codes.claim(found))) return rejectReplay(deps, request, client, code, secretless);
    const lifetimes = includesOfflineAccess(found.grant.scope) ? refreshLifetimesOf(client) : null;
    const scope = grantedScope(found.grant.scope, lifetimes !== null);
    const issued = await issueUserTokens(deps, {
      ...found.grant,
      scope,
      ...(jkt ? { jkt } : {}),
      ...binding,
      idTokenAlg: client.idTokenSignedResponseAlg,
    });
    const issuedHashes = [issued.accessTokenHash];
    let refreshToken: string | undefined;
    if (lifetimes) {
      const nowMs = deps.clock.now();
      const started = await deps.refreshTokens.start(
        {
          tenantId: found.grant.tenantId,
          appId: found.grant.appId,
          clientId: found.grant.clientId,
          sub: found.grant.claims.sub,
          scope,
          claims: found.grant.claims,
          ...(found.grant.requestedClaims ? { requestedClaims: found.grant.requestedClaims } : {}),
          ...(found.grant.login ? { login: found.grant.login } : {}),
          // RFC 9449 §5: a public client's refresh token is bound to its key (a confidential one
          // authenticates itself at each refresh instead).
          ...(jkt && client.type === directoryProto.ClientType.CLIENT_TYPE_PUBLIC ? { jkt } : {}),
          absoluteExpiresAt: nowMs + lifetimes.absoluteMs,
          idleLifetimeMs: lifetimes.idleMs,
        },
        nowMs,
        { hash: issued.accessTokenHash, expiresAt: issued.accessTokenExpiresAtMs },
      );
      refreshToken = started.token;
      issuedHashes.push(`${FAMILY_PREFIX}${started.familyId}`);
    }
    await guardAgainstConcurrentReplay(deps, found, issuedHashes);
    return {
      status: 200,
      body: { ...issued.response, ...(refreshToken ? { refresh_token: refreshToken } : {}) },
    };
  };
}

/** How a code's redemption record names the refresh token family it started, beside access token hashes. */
const FAMILY_PREFIX = 'family:';

/** Revokes what a code yielded: its access tokens, and the refresh token family it started (RFC 6749 4.1.2). */
async function revokeIssued(deps: TokenDeps, issued: string[]): Promise<void> {
  const families = issued.filter((h) => h.startsWith(FAMILY_PREFIX));
  const fromFamilies = await Promise.all(
    families.map((f) => deps.refreshTokens.revokeFamily(f.slice(FAMILY_PREFIX.length))),
  );
  await deps.accessTokens.revoke([
    ...issued.filter((h) => !h.startsWith(FAMILY_PREFIX)),
    ...fromFamilies.flat(),
  ]);
}

/** Client, redirect_uri and PKCE, checked before a code is claimed or a replay revokes anything. */
function checkBinding(
  binding: CodeBinding,
  client: Client,
  request: TokenRequest,
  secretless: boolean,
): void {
  checkCodeClient(binding, client, secretless);
  checkRedirectUri(binding.redirectUri, requireParam(request, 'redirect_uri'));
  checkPkce(binding.codeChallenge, request.params.code_verifier);
}

/**
 * FAPI 2.0 §5.3.2.1: a FAPI 2.0 app's code is good at most 60 seconds, even where SESAME_CODE_TTL_S keeps
 * codes longer; an older one is invalid_grant, like an expired code (and is not used up).
 */
function checkFapi2CodeLife(grant: FoundCode['grant'], client: Client, nowMs: number): void {
  if (!isFapi2(client) || grant.issuedAt === undefined) return;
  if (nowMs - grant.issuedAt > FAPI2_MAX_CODE_LIFETIME_S * 1000)
    throw oauthErrors.invalidGrant(
      `the code has expired (the FAPI 2.0 profile: ${FAPI2_MAX_CODE_LIFETIME_S} seconds)`,
    );
}

/**
 * A code that cannot be claimed: unknown or expired, or used. A used code presented by its rightful client
 * (same client, redirect_uri and verifier) is a replay and revokes what the code yielded; presented by
 * anyone else it is refused and revokes nothing.
 */
async function rejectReplay(
  deps: TokenDeps,
  request: TokenRequest,
  client: Client,
  code: string,
  secretless: boolean,
): Promise<never> {
  const redeemed = await deps.codes.findRedeemed(code);
  if (!redeemed) {
    requireParam(request, 'redirect_uri');
    throw oauthErrors.invalidGrant('code is invalid or expired');
  }
  checkBinding(redeemed.binding, client, request, secretless);
  const issued = await deps.codes.registerReplay(redeemed);
  await revokeIssued(deps, issued);
  deps.logger.warn(
    { revokedTokens: issued.length },
    'authorization code replayed; tokens issued from it revoked',
  );
  throw oauthErrors.invalidGrant('code was already used');
}

async function guardAgainstConcurrentReplay(deps: TokenDeps, found: FoundCode, issued: string[]) {
  if (await deps.codes.recordIssued(found, issued)) {
    await revokeIssued(deps, issued);
    throw oauthErrors.invalidGrant('code was already used');
  }
}
