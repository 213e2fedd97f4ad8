import { oauthErrors as cibaErrors } from '@sesame/oauth';
import { directory } from '@sesame/proto';

const MAX_TOKEN = 1024;

/**
 * client_notification_token (spec 4.3, CIBA Core §7.1): required of a ping-mode client (it authenticates the
 * ping), refused from a poll-mode one (nothing would ever use it). At most 1024 characters, no whitespace.
 */
export function checkNotificationToken(
  token: string | undefined,
  mode: directory.CibaDeliveryMode,
): string | undefined {
  if (mode === directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_PING) {
    if (token === undefined)
      throw cibaErrors.invalidRequest('client_notification_token is required for a ping-mode client');
    if (token.length > MAX_TOKEN || /\s/.test(token))
      throw cibaErrors.invalidRequest(
        `client_notification_token must be at most ${MAX_TOKEN} characters without spaces`,
      );
    return token;
  }
  if (token !== undefined)
    throw cibaErrors.invalidRequest('client_notification_token is only for ping-mode clients');
  return undefined;
}
