import { MAX_CUSTOM_MESSAGE, oauthErrors as problems } from '@sesame/oauth';

export { MAX_CUSTOM_MESSAGE };

/** svc_custom_message (spec 4.2): shown on consent screens as text (templates escape it). */
export function checkCustomMessage(message: string | undefined): string | undefined {
  if (message !== undefined && [...message].length > MAX_CUSTOM_MESSAGE) {
    throw problems.invalidRequest(`svc_custom_message must be at most ${MAX_CUSTOM_MESSAGE} characters`);
  }
  return message;
}
