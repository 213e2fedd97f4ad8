import type { AuthFailureThrottle, SendLimiter } from '@sesame/kv';
import type { ClientAssertionVerifier } from '@sesame/oauth';
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
  cibaLinks: CibaLinks;
  sealer: Sealer;
  sendSms(sms: OutgoingSms): Promise<unknown>;
  /** The CIBA SMS limits (per number, client, tenant and caller IP). */
  smsLimits: SendLimiter;
  /** Lifetime of a request and its link in seconds (spec 8: 1800 by default). */
  cibaExpiresInS: number;
}
