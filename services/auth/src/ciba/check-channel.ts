import { oauthErrors as cibaErrors } from '@sesame/oauth';
import { z } from 'zod';
import { hasHiddenCharacters } from '../authorize/display-text';

export const MAX_SMS_CUSTOM_MESSAGE = 160;

/** E.164: a leading +, a country code that does not start with 0, at most 15 digits in all. */
const e164 = /^\+[1-9]\d{6,14}$/;

const channelSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('direct_link') }).strict(),
  z
    .object({
      type: z.literal('sms'),
      target: z.string().regex(e164),
      user_link_custom_message: z
        .string()
        .min(1)
        .max(MAX_SMS_CUSTOM_MESSAGE)
        .refine((s) => !hasHiddenCharacters(s))
        .optional(),
    })
    .strict(),
]);

// A URL (scheme, www., or a dotted name with a top-level domain) or a phone number (7 digits or more, with
// spaces, dots, dashes or brackets between): neither may reach a person in a text sent under Sesame's name.
const URL_LIKE = /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|[\p{L}\p{N}-]\.[a-z]{2,}\b|\/\//iu;
const PHONE_LIKE = /\+?\d(?:[\s().-]*\d){6,}/;

/** Whether a client's SMS text carries a link or a phone number (refused: see checkChannel). */
export const carriesLinkOrNumber = (text: string): boolean => URL_LIKE.test(text) || PHONE_LIKE.test(text);

export type Channel = { type: 'direct_link' } | { type: 'sms'; target: string; message?: string };

/**
 * channel (spec 4.3): a form field holding a JSON object, type direct_link or sms; sms needs target, the
 * phone number in E.164 (leading +), and may carry user_link_custom_message (the text before the link).
 * direct_link takes neither. Each failure is invalid_request naming the rule, never echoing the input.
 */
export function checkChannel(raw: string | undefined): Channel {
  if (raw === undefined) throw cibaErrors.invalidRequest('channel is required');
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw cibaErrors.invalidRequest('channel must be a JSON object');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw cibaErrors.invalidRequest('channel must be a JSON object');
  const type = (json as { type?: unknown }).type;
  if (type !== 'direct_link' && type !== 'sms')
    throw cibaErrors.invalidRequest('channel.type must be direct_link or sms');
  if (type === 'sms' && (json as { target?: unknown }).target === undefined)
    throw cibaErrors.invalidRequest('channel.target is required for sms');
  const parsed = channelSchema.safeParse(json);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.') || 'channel';
    const rule =
      field === 'target'
        ? 'channel.target must be a phone number in E.164 form (+ and up to 15 digits)'
        : field === 'user_link_custom_message'
          ? `channel.user_link_custom_message must be 1 to ${MAX_SMS_CUSTOM_MESSAGE} characters on one line`
          : `channel for ${type} has an unsupported member`;
    throw cibaErrors.invalidRequest(rule);
  }
  const channel = parsed.data;
  if (
    channel.type === 'sms' &&
    channel.user_link_custom_message &&
    carriesLinkOrNumber(channel.user_link_custom_message)
  )
    throw cibaErrors.invalidRequest(
      'channel.user_link_custom_message may not carry a URL, a domain name or a phone number: the SMS carries the link itself',
    );
  return channel.type === 'sms'
    ? {
        type: 'sms',
        target: channel.target,
        ...(channel.user_link_custom_message ? { message: channel.user_link_custom_message } : {}),
      }
    : { type: 'direct_link' };
}
