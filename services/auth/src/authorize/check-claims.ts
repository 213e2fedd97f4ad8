import { MAX_CLAIMS_LENGTH, oauthErrors as problems } from '@sesame/oauth';
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

const claimsRequest = z
  .object({
    id_token: z
      .object({ svc_psd2_transaction: psd2Transaction.optional(), svc_approval: approval.optional() })
      .strict()
      .optional(),
  })
  .strict();

function parseJson(claims: string): unknown {
  try {
    return JSON.parse(claims);
  } catch {
    throw problems.invalidRequest('claims must be a JSON object');
  }
}

/** The description names the claim that failed, from the fixed names only, never the caller's keys. */
function describe(issue: z.ZodIssue | undefined): string {
  const claim = issue?.path[1];
  if (claim === 'svc_psd2_transaction') {
    return 'claims svc_psd2_transaction must be {"value":{"display_data":{"payee","payment_amount","payment_method"},"additional_data"?}} with non-empty strings';
  }
  if (claim === 'svc_approval') {
    return 'claims svc_approval must be {"value":{"display_data":{"main_attribute"?:{"label","value"},"attributes":[at most 2 of {"label","value","icon"?}]},"additional_data"?:{}}} with non-empty strings and a known icon';
  }
  return 'claims may only request id_token members svc_psd2_transaction and svc_approval';
}

/**
 * The claims parameter (spec 4.2): only id_token members svc_psd2_transaction and svc_approval, each with a
 * value holding display_data (shown on consent) and optional additional_data (returned in the ID token).
 * Anything else is refused rather than ignored: an RP asking for a transaction it cannot get signed must
 * learn so now.
 */
export function checkClaims(claims: string | undefined): RequestedClaims | undefined {
  if (claims === undefined) return undefined;
  if (claims.length > MAX_CLAIMS_LENGTH) {
    throw problems.invalidRequest(`claims must be at most ${MAX_CLAIMS_LENGTH} characters`);
  }
  const parsed = claimsRequest.safeParse(parseJson(claims));
  if (!parsed.success) throw problems.invalidRequest(describe(parsed.error.issues[0]));
  const idToken = parsed.data.id_token;
  const psd2 = idToken?.svc_psd2_transaction?.value;
  const approvalValue = idToken?.svc_approval?.value;
  if (!psd2 && !approvalValue) return undefined;
  return {
    ...(psd2 ? { psd2Transaction: psd2 } : {}),
    ...(approvalValue ? { approval: approvalValue } : {}),
  };
}
