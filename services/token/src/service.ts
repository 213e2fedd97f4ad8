import { type EventConsumer, evictOnAdminEvents } from '@sesame/events';
import { type KeyValueStore, shortLivedKeyValueStore } from '@sesame/kv';
import { ClientJwks, clientAssertionVerifier, dpopNonces, dpopVerifier } from '@sesame/oauth';
import { type Clock, type Readiness, grpcTlsOf, systemClock } from '@sesame/platform';
import { grants } from '@sesame/proto';
import { type ServiceOverrides, defineService } from '@sesame/runtime';
import type { TokenConfig } from './config';
import type { TokenDeps } from './deps';
import { cacheDirectory, directoryCacheEvictions } from './directory/cached-directory';
import type { ClientDirectory } from './directory/directory';
import { grpcDirectory } from './directory/grpc-directory';
import { AccessTokenStore } from './grants/access-tokens';
import { AuthFailureThrottle } from './grants/auth-failures';
import { BackchannelRequests } from './grants/backchannel-requests';
import { CodeStore } from './grants/codes';
import { RefreshTokenStore } from './grants/refresh-tokens';
import { completeBackchannel } from './grpc/complete-backchannel';
import { denyBackchannel } from './grpc/deny-backchannel';
import { introspectAccessToken } from './grpc/introspect-access-token';
import { issueCode } from './grpc/issue-code';
import { markBackchannelOpened } from './grpc/mark-backchannel-opened';
import { revokeUserGrants } from './grpc/revoke-user-grants';
import { startBackchannel } from './grpc/start-backchannel';
import { KeyRing } from './keys/key-ring';
import { type SigningKeyWatch, watchSigningKey } from './keys/watch-signing-key';
import { introspectEndpoint } from './routes/rp/introspect';
import { revokeEndpoint } from './routes/rp/revoke';
import { userinfoEndpoint, userinfoPreflight } from './routes/rp/userinfo';
import { tokenEndpoint } from './routes/token/token-endpoint';
import { type EndpointMount, tokenRoutes } from './routes/token/token-route';

export interface TokenOverrides extends ServiceOverrides {
  /** Replaces the Directory gRPC client (tests). */
  directory?: ClientDirectory;
  clock?: Clock;
  /** Replaces the KV store openStores picks (tests: an in-memory store on the test clock). */
  kv?: KeyValueStore;
}

export const createTokenService = defineService<TokenConfig, TokenOverrides>(
  'token',
  { kv: true, events: true },
  async ({ config, overrides, logger, metrics, stores }) => {
    const clock = overrides.clock ?? systemClock;
    const clientJwks = new ClientJwks(clock);
    const kv = overrides.kv ?? stores.kv;
    if (!kv || !stores.bus) throw new Error('token needs its KV store and event bus');
    const grpcTls = grpcTlsOf(config);
    const remoteDirectory = overrides.directory
      ? undefined
      : grpcDirectory(config.SESAME_DIRECTORY_ADDR, grpcTls);
    const keyRing = new KeyRing();
    const directoryCache = cacheDirectory(
      overrides.directory ?? (remoteDirectory as ClientDirectory),
      config.SESAME_DIRECTORY_CACHE_MS,
      clock,
    );
    const accessTtlMs = Math.max(config.SESAME_ACCESS_TOKEN_TTL_S, config.SESAME_API_TOKEN_TTL_S) * 1000;
    const deps: TokenDeps = {
      config,
      clock,
      logger,
      // Authorization codes (a minute of life) and their redemption records are short-lived state: on the
      // embedded engine they stay in memory (issue 36 allows it), lost on a restart like auth's flows. Their
      // four writes per sign-in, three of them transactions of their own, were the engine's largest share
      // after the activity log. A restart then forgets which codes were redeemed: a code presented again
      // after it is unknown (invalid_grant) and no longer revokes what it was exchanged for.
      codes: new CodeStore(shortLivedKeyValueStore(kv), {
        codeTtlMs: config.SESAME_CODE_TTL_S * 1000,
        tokenTtlMs: accessTtlMs,
      }),
      accessTokens: new AccessTokenStore(kv),
      refreshTokens: new RefreshTokenStore(kv),
      backchannel: new BackchannelRequests(kv, config.SESAME_CIBA_EXPIRED_GRACE_S * 1000),
      directory: directoryCache,
      keyRing,
      publisher: stores.bus.publisher,
      authFailures: new AuthFailureThrottle(
        shortLivedKeyValueStore(kv),
        {
          perClientAndIp: config.SESAME_AUTH_FAILURES_PER_CLIENT_IP,
          perIp: config.SESAME_AUTH_FAILURES_PER_IP,
          windowMs: config.SESAME_AUTH_FAILURE_WINDOW_S * 1000,
        },
        logger,
      ),
      clientJwks,
      assertions: clientAssertionVerifier({
        clock,
        jwks: clientJwks,
        replays: kv,
        // FAPI 2.0 asks for the issuer; RFC 7523 names the token endpoint. Both are accepted.
        audiences: [config.SESAME_AUTH_URL, new URL('/token', config.SESAME_AUTH_URL).href],
      }),
      dpop: dpopVerifier({
        clock,
        replays: kv,
        ...(config.SESAME_DPOP_NONCE_SECRET
          ? { nonces: dpopNonces(config.SESAME_DPOP_NONCE_SECRET, clock) }
          : {}),
      }),
    };
    const signingKeyReady: Readiness = {
      name: 'signing-key',
      check: async () => {
        if (!keyRing.has()) throw new Error('no signing key received from the Keys service yet');
      },
    };
    let watch: SigningKeyWatch | undefined;
    let evictions: Promise<EventConsumer | undefined> | undefined;
    const bus = stores.bus;
    const mounts: EndpointMount[] = [
      { path: '/token', methods: { POST: tokenEndpoint(deps, metrics) } },
      { path: '/revoke', methods: { POST: revokeEndpoint(deps, metrics) } },
      { path: '/introspect', methods: { POST: introspectEndpoint(deps, metrics) } },
      {
        path: '/userinfo',
        methods: {
          GET: userinfoEndpoint(deps, 'GET', metrics),
          POST: userinfoEndpoint(deps, 'POST', metrics),
        },
        preflight: userinfoPreflight,
      },
    ];
    return {
      routes: tokenRoutes(mounts),
      rawRoutes: mounts.flatMap(({ path, methods }) =>
        (Object.keys(methods) as Array<'GET' | 'POST'>).map((method) => ({
          method,
          path,
          handle: methods[method]!,
        })),
      ),
      grpc: (server) =>
        server.add<grants.GrantsServiceServer>(grants.GrantsServiceService, {
          issueCode: issueCode(deps),
          startBackchannel: startBackchannel(deps),
          markBackchannelOpened: markBackchannelOpened(deps),
          completeBackchannel: completeBackchannel(deps),
          denyBackchannel: denyBackchannel(deps),
          introspectAccessToken: introspectAccessToken(deps),
          revokeUserGrants: revokeUserGrants(deps),
        }),
      readiness: [signingKeyReady],
      async start() {
        // Not awaited: joining a consumer group waits for Kafka, and /token must not wait for it. Until the
        // consumer runs, the cache TTL alone bounds how long a revocation can lag.
        if (config.SESAME_DIRECTORY_CACHE_MS > 0)
          evictions = evictOnAdminEvents(bus, directoryCache, logger, directoryCacheEvictions).catch(
            (err: unknown) => {
              logger.warn({ err }, 'admin events consumer did not start; Directory cache relies on its TTL');
              return undefined;
            },
          );
        watch = watchSigningKey({ address: config.SESAME_KEYS_ADDR, tls: grpcTls, ring: keyRing, logger });
      },
      async stop() {
        watch?.stop();
        await (await evictions)?.stop();
        remoteDirectory?.close();
      },
    };
  },
);
