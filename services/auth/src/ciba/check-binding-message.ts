import { MAX_BINDING_MESSAGE, oauthErrors as cibaErrors } from '@sesame/oauth';

export { MAX_BINDING_MESSAGE };

/** binding_message (spec 4.3, CIBA Core §7.1): plain text of one line; too long or control characters → §13's invalid_binding_message. */
export function checkBindingMessage(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  if ([...message].length > MAX_BINDING_MESSAGE)
    throw cibaErrors.invalidBindingMessage(
      `binding_message may hold at most ${MAX_BINDING_MESSAGE} characters`,
    );
  if (/\p{Cc}/u.test(message))
    throw cibaErrors.invalidBindingMessage('binding_message must be one line without control characters');
  return message;
}
