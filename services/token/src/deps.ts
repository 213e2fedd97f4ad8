import type { EventPublisher } from '@sesame/events';
import type { ClientAssertionVerifier, ClientJwks, DpopVerifier } from '@sesame/oauth';
import type { Clock, Logger } from '@sesame/platform';
import type { TokenConfig } from './config';
import type { CachingDirectory } from './directory/cached-directory';
import type { AccessTokenStore } from './grants/access-tokens';
import type { AuthFailureThrottle } from './grants/auth-failures';
import type { BackchannelRequests } from './grants/backchannel-requests';
import type { CodeStore } from './grants/codes';
import type { RefreshTokenStore } from './grants/refresh-tokens';
import type { KeyRing } from './keys/key-ring';

/** Everything the routes and gRPC handlers of token use, passed in (no module state). */
export interface TokenDeps {
  config: TokenConfig;
  clock: Clock;
  logger: Logger;
  codes: CodeStore;
  accessTokens: AccessTokenStore;
  refreshTokens: RefreshTokenStore;
  backchannel: BackchannelRequests;
  directory: CachingDirectory;
  keyRing: KeyRing;
  publisher: EventPublisher;
  authFailures: AuthFailureThrottle;
  /** private_key_jwt: verifies client assertions (jti replays remembered in the KV store). */
  assertions: ClientAssertionVerifier;
  /** DPoP proofs (RFC 9449): jti replays remembered in the KV store, server nonces when configured. */
  dpop: DpopVerifier;
  /** The public keys of clients (private_key_jwt, self_signed_tls_client_auth), by value or fetched. */
  clientJwks: ClientJwks;
}
