import { ID_TOKEN_CLAIMS, MAX_CLAIMS_LENGTH, oauthErrors as problems } from '@sesame/oauth';
import { z } from 'zod';
import { type RequestedClaims, approvalIcons } from './types';

export { MAX_CLAIMS_LENGTH };
const MAX_TEXT = 200;

const text = z.string().min(1).max(MAX_TEXT);

const psd2Transaction = z
  .object({
    value: z
      .object({
        display_data: z.object({ payee: text, payment_amount: text, payment_method: text }).strict(),
        additional_data: z.unknown().optional(),
      })
      .strict(),
  })
  .strict();

const approval = z
  .object({
    value: z
      .object({
        display_data: z
          .object({
            main_attribute: z.object({ label: text, value: text }).strict().optional(),
            attributes: z
              .array(
                z
                  .object({ label: text, value: text, icon: z.enum(approvalIcons).default('Payment') })
                  .strict(),
              )
              .max(2),
          })
          .strict(),
        additional_data: z.record(z.unknown()).optional(),
      })
      .strict(),
  })
  .strict();

/** A standard claim request (OIDC Core 5.5.1): null, or an object whose essential, value and values are typed. */
const standardClaim = z.union([
  z.null(),
  z
    .object({
      essential: z.boolean().optional(),
      value: z.unknown(),
      values: z.array(z.unknown()).optional(),
    })
    .passthrough(),
]);

/** Sesame's own claims are id_token requests with a value; the rest are standard claims, unknown names ignored. */
const claimsRequest = z
  .object({
    id_token: z
      .object({ svc_psd2_transaction: psd2Transaction.optional(), svc_approval: approval.optional() })
      .catchall(standardClaim)
      .optional(),
    userinfo: z.record(standardClaim).optional(),
  })
  .passthrough();

const SVC_CLAIMS = new Set(['svc_psd2_transaction', 'svc_approval']);
/** The standard claims Sesame can answer: those it may put in an ID token (discovery's claims_supported). */
const ANSWERABLE: ReadonlySet<string> = new Set(ID_TOKEN_CLAIMS.filter((claim) => !SVC_CLAIMS.has(claim)));
const email = z.string().max(254).email();

function parseJson(claims: string): unknown {
  try {
    return JSON.parse(claims);
  } catch {
    throw problems.invalidRequest('claims must be a JSON object');
  }
}

/** The description names the claim that failed, from the fixed names only, never the caller's keys. */
function describe(issue: z.ZodIssue | undefined): string {
  const [member, claim] = issue?.path ?? [];
  if (member === 'id_token' && claim === 'svc_psd2_transaction') {
    return 'claims svc_psd2_transaction must be {"value":{"display_data":{"payee","payment_amount","payment_method"},"additional_data"?}} with non-empty strings';
  }
  if (member === 'id_token' && claim === 'svc_approval') {
    return 'claims svc_approval must be {"value":{"display_data":{"main_attribute"?:{"label","value"},"attributes":[at most 2 of {"label","value","icon"?}]},"additional_data"?:{}}} with non-empty strings and a known icon';
  }
  if ((member === 'id_token' || member === 'userinfo') && claim !== undefined) {
    return 'claims members must be null or an object with essential (true or false), value, values (an array)';
  }
  return 'claims must be a JSON object whose id_token and userinfo members are objects';
}

/** The answerable claim names of one member, each once, in the caller's order. */
const namesOf = (member: Record<string, unknown> | undefined) =>
  Object.keys(member ?? {}).filter((name) => ANSWERABLE.has(name));

/** The standard claims whose value token checks against a request's value or values (OIDC Core 5.5.1). */
const VALUE_CHECKED: ReadonlySet<string> = new Set([
  'email',
  'email_verified',
  'phone_number',
  'phone_number_verified',
]);

/** The value or values (Core 5.5.1) a member named for its value-checked claims; undefined when none. */
function valuesOf(member: Record<string, unknown> | undefined): Record<string, unknown[]> | undefined {
  const named: Record<string, unknown[]> = {};
  for (const [name, request] of Object.entries(member ?? {})) {
    if (!VALUE_CHECKED.has(name) || request === null || typeof request !== 'object') continue;
    const { value, values } = request as { value?: unknown; values?: unknown[] };
    const all = [...(value === undefined ? [] : [value]), ...(values ?? [])];
    if (all.length) named[name] = all;
  }
  return Object.keys(named).length ? named : undefined;
}

/** An email the RP named as the value of the email claim (OIDC Core 5.5.1): the sign-in's hint when none is given. */
function emailValueOf(...members: (Record<string, unknown> | undefined)[]): string | undefined {
  for (const member of members) {
    const requested = member?.email as { value?: unknown } | null | undefined;
    const parsed = email.safeParse(requested?.value);
    if (parsed.success) return parsed.data;
  }
  return undefined;
}

/**
 * The claims parameter (spec 4.2; OIDC Core 5.5). Sesame's id_token members svc_psd2_transaction and
 * svc_approval, each with a value holding display_data (shown on consent) and optional additional_data
 * (returned in the ID token): a malformed one is refused, not ignored, since an RP asking for a transaction it
 * cannot get signed must learn so now; in userinfo they are refused. Standard claims of id_token and userinfo
 * are accepted: the names Sesame can answer are carried with the grant (idToken, userinfo), names it does not
 * know are ignored (Core 5.5), the `value`/`values` of email, phone_number and their verified flags go with
 * them (token leaves out a claim whose value is none of them), and an email `value` is used as the login
 * hint. `essential` changes nothing: Core says an essential claim that cannot be given is no error. A member that is not null or a claim request
 * object is invalid_request.
 */
export function checkClaims(claims: string | undefined): RequestedClaims | undefined {
  if (claims === undefined) return undefined;
  if (claims.length > MAX_CLAIMS_LENGTH) {
    throw problems.invalidRequest(`claims must be at most ${MAX_CLAIMS_LENGTH} characters`);
  }
  const json = parseJson(claims);
  const parsed = claimsRequest.safeParse(json);
  if (!parsed.success) throw problems.invalidRequest(describe(parsed.error.issues[0]));
  const { id_token: idToken, userinfo } = parsed.data;
  if (userinfo && Object.keys(userinfo).some((name) => SVC_CLAIMS.has(name)))
    throw problems.invalidRequest(
      'claims svc_psd2_transaction and svc_approval may only be requested in id_token',
    );
  const psd2 = idToken?.svc_psd2_transaction?.value;
  const approvalValue = idToken?.svc_approval?.value;
  const idTokenNames = namesOf(idToken);
  const userinfoNames = namesOf(userinfo);
  const emailValue = emailValueOf(idToken, userinfo);
  const idTokenValues = valuesOf(idToken);
  const userinfoValues = valuesOf(userinfo);
  const requested: RequestedClaims = {
    ...(psd2 ? { psd2Transaction: psd2 } : {}),
    ...(approvalValue ? { approval: approvalValue } : {}),
    ...(idTokenNames.length ? { idToken: idTokenNames } : {}),
    ...(userinfoNames.length ? { userinfo: userinfoNames } : {}),
    ...(emailValue ? { email: emailValue } : {}),
    ...(idTokenValues || userinfoValues
      ? {
          values: {
            ...(idTokenValues ? { idToken: idTokenValues } : {}),
            ...(userinfoValues ? { userinfo: userinfoValues } : {}),
          },
        }
      : {}),
  };
  return Object.keys(requested).length ? requested : undefined;
}
