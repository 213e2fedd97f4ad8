import type { AuthFailureThrottle, SendLimiter } from '@sesame/kv';
import type {
  ClientAssertionVerifier,
  ClientJwks,
  ForwardedCertificateHeaders,
  SignedCibaRequestVerifier,
} from '@sesame/oauth';
import type { OutgoingSms } from '@sesame/sms';
import type { AuthPeers } from '../peers';
import type { HostedDeps } from '../web/deps';
import type { CibaLinks } from './links';
import type { Sealer } from './sealed-id';

/** What /authorize_ciba and the CIBA link pages need beyond the hosted sign-in's dependencies. */
export interface CibaDeps extends HostedDeps {
  grants: Pick<
    AuthPeers,
    | 'authenticateClient'
    | 'getClient'
    | 'startBackchannel'
    | 'markBackchannelOpened'
    | 'completeBackchannel'
    | 'denyBackchannel'
  >;
  authFailures: AuthFailureThrottle;
  /** private_key_jwt: verifies client assertions (jti replays remembered in the KV store). */
  assertions: ClientAssertionVerifier;
  /** Mutual TLS (RFC 8705): the client keys and the terminator's headers (SESAME_TLS_CLIENT_*_HEADER), as /par. */
  mtls?: { keys: ClientJwks; forwarded: ForwardedCertificateHeaders };
  /** FAPI-CIBA: checks a signed authentication request (the `request` parameter, CIBA Core 7.1.1). */
  verifySignedCibaRequest: SignedCibaRequestVerifier;
  cibaLinks: CibaLinks;
  sealer: Sealer;
  sendSms(sms: OutgoingSms): Promise<unknown>;
  /** The CIBA SMS limits (per number, client, tenant and caller IP). */
  smsLimits: SendLimiter;
  /** Lifetime of a request and its link in seconds (spec 8: 1800 by default). */
  cibaExpiresInS: number;
}
