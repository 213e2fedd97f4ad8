import { MAX_BINDING_MESSAGE, oauthErrors as cibaErrors } from '@sesame/oauth';
import { hasHiddenCharacters } from '../authorize/display-text';

export { MAX_BINDING_MESSAGE };

/**
 * binding_message (spec 4.3, CIBA Core §7.1): plain visible text of one line; too long, or control, format
 * (bidi, zero-width), line/paragraph separator or private-use characters (display-text.ts) → §13's
 * invalid_binding_message, the code CIBA Core gives a binding_message it refuses (it names the field).
 */
export function checkBindingMessage(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  if ([...message].length > MAX_BINDING_MESSAGE)
    throw cibaErrors.invalidBindingMessage(
      `binding_message may hold at most ${MAX_BINDING_MESSAGE} characters`,
    );
  if (hasHiddenCharacters(message))
    throw cibaErrors.invalidBindingMessage(
      'binding_message must be visible text of one line: no control, format (bidi, zero-width), line separator or private-use characters',
    );
  return message;
}
