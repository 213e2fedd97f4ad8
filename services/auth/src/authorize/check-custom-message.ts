import { problems } from './authorize-error';

/** Room for a sentence or two on the consent screen, small enough for a phone. */
export const MAX_CUSTOM_MESSAGE = 500;

/** svc_custom_message (spec 4.2): shown on consent screens as text (templates escape it). */
export function checkCustomMessage(message: string | undefined): string | undefined {
  if (message !== undefined && [...message].length > MAX_CUSTOM_MESSAGE) {
    throw problems.invalidRequest(`svc_custom_message must be at most ${MAX_CUSTOM_MESSAGE} characters`);
  }
  return message;
}
