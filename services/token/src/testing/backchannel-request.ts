import type { grants } from '@sesame/proto';

/** A StartBackchannel request of a poll-mode client; tests override what they are about. */
export const backchannelRequest = (
  over: Partial<grants.StartBackchannelRequest> = {},
): grants.StartBackchannelRequest => ({
  tenantId: 't',
  appId: 'a',
  clientId: 'c',
  scope: 'openid',
  clientNotificationToken: '',
  expiresIn: 120,
  flowId: 'f',
  ...over,
});
