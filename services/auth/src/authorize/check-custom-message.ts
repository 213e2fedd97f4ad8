import { MAX_CUSTOM_MESSAGE, oauthErrors as problems } from '@sesame/oauth';
import { hasHiddenCharacters } from './display-text';

export { MAX_CUSTOM_MESSAGE };

/**
 * svc_custom_message (spec 4.2): shown on consent screens as text (templates escape it); plain visible text of
 * one line (no control, format, separator or private-use characters: display-text.ts).
 */
export function checkCustomMessage(message: string | undefined): string | undefined {
  if (message !== undefined && [...message].length > MAX_CUSTOM_MESSAGE) {
    throw problems.invalidRequest(`svc_custom_message must be at most ${MAX_CUSTOM_MESSAGE} characters`);
  }
  if (message !== undefined && hasHiddenCharacters(message)) {
    throw problems.invalidRequest(
      'svc_custom_message must be visible text of one line: no control, format (bidi, zero-width), line separator or private-use characters',
    );
  }
  return message;
}
