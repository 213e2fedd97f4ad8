import type { EventPublisher } from '@sesame/events';
import { type Logger, newId } from '@sesame/platform';
import { events, type directory, type keys, topics } from '@sesame/proto';
import type { SignedIn } from '../../session/browser-session';

/**
 * Logout tokens live two minutes (Back-Channel Logout 1.0 §2.4 advises a short life); ciba-notifier gives up
 * a notice whose token has expired, so retries fit in this window.
 */
export const LOGOUT_TOKEN_TTL_S = 120;

export interface BackchannelDeps {
  issuer: string;
  logger: Logger;
  getClient(clientId: string): Promise<directory.Client | undefined>;
  /** Keys.SignLogoutToken: the logout token, signed by the environment's active signing key. */
  signLogoutToken(request: keys.SignLogoutTokenRequest): Promise<string>;
  publisher: EventPublisher;
  now(): number;
}

/**
 * Back-Channel Logout 1.0 for an ended session: every app that got a code from it (`signedIn.clients`), is
 * still of the session's tenant and registered a backchannel_logout_uri gets a logout token (sub and sid) as a
 * LogoutNotice on sesame.logout-notices.v1, which ciba-notifier delivers. The browser is not kept waiting for
 * any app: a failure to sign or publish for one app is logged and the others go on. Returns the client_ids
 * notified.
 */
export async function notifyBackchannel(deps: BackchannelDeps, signedIn: SignedIn): Promise<string[]> {
  const notified = await Promise.all(
    (signedIn.clients ?? []).map(async (clientId) => {
      try {
        const client = await deps.getClient(clientId);
        if (!client?.backchannelLogoutUri || client.tenantId !== signedIn.tenantId) return undefined;
        const logoutToken = await deps.signLogoutToken({
          issuer: deps.issuer,
          audience: clientId,
          sub: signedIn.userId,
          sid: signedIn.sid ?? '',
          ttlS: LOGOUT_TOKEN_TTL_S,
          // The app's ID token alg (RS256 when it chose none): its RP verifies logout tokens like ID tokens.
          alg: client.idTokenSignedResponseAlg,
        });
        const now = deps.now();
        const notice: events.LogoutNotice = {
          noticeId: newId(),
          tenantId: client.tenantId,
          clientId,
          backchannelLogoutUri: client.backchannelLogoutUri,
          logoutToken,
          expiresAtMs: now + LOGOUT_TOKEN_TTL_S * 1000,
          timestampMs: now,
        };
        await deps.publisher.publish(topics.logoutNotices, [
          { key: clientId, value: events.LogoutNotice.encode(notice).finish() },
        ]);
        return clientId;
      } catch (err) {
        deps.logger.error({ err, clientId }, 'back-channel logout notice not sent for an app of the session');
        return undefined;
      }
    }),
  );
  return notified.filter((c): c is string => c !== undefined);
}
