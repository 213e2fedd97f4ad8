import type { grants } from '@sesame/proto';
import { z } from 'zod';

/**
 * The standard claims an RP asked for by name in the claims parameter (OIDC Core 5.5), as auth sent them
 * with the code: the names per member and the value or values named for some of them. Kept with the code
 * and the refresh token family, so the ID tokens of a refresh and /userinfo answer the same as the sign-in.
 */
export interface RequestedClaims {
  idToken: string[];
  userinfo: string[];
  /** Per member, the values a claim may have to be returned there (Core 5.5.1 value, values). */
  values: { idToken: Record<string, unknown[]>; userinfo: Record<string, unknown[]> };
}

export type ClaimMember = 'idToken' | 'userinfo';

/** A standard claim Sesame can answer from a sign-in's claim set. */
type StandardClaim = 'email' | 'email_verified' | 'phone_number' | 'phone_number_verified';
export type StandardClaims = Partial<Record<StandardClaim, string | boolean>>;

/** The claims a scope stands for (Core 5.4); profile stands for none Sesame keeps. */
const SCOPE_CLAIMS: Record<string, StandardClaim[]> = {
  email: ['email', 'email_verified'],
  phone: ['phone_number', 'phone_number_verified'],
};
const ORDER: StandardClaim[] = ['email', 'email_verified', 'phone_number', 'phone_number_verified'];

const MAX_NAMES = 50;
const names = z.array(z.string().min(1).max(100)).max(MAX_NAMES).optional();
const valuesByName = z.record(z.array(z.unknown()).max(MAX_NAMES)).optional();

/**
 * The claims request of an IssueCode call, as sent: the names per member and, per member, the values named
 * for a claim (lists by claim name). Anything else is a caller bug: INVALID_ARGUMENT at the gRPC layer.
 */
export const issuedClaimsRequest = z.object({
  requestedClaims: z.object({ idToken: names, userinfo: names }).optional(),
  requestedClaimValues: z.object({ id_token: valuesByName, userinfo: valuesByName }).partial().optional(),
});

/** The claims request kept with a code; undefined when it named no standard claim. */
export function requestedClaimsOf(sent: z.infer<typeof issuedClaimsRequest>): RequestedClaims | undefined {
  const idToken = sent.requestedClaims?.idToken ?? [];
  const userinfo = sent.requestedClaims?.userinfo ?? [];
  if (!idToken.length && !userinfo.length) return undefined;
  const values = sent.requestedClaimValues;
  return { idToken, userinfo, values: { idToken: values?.id_token ?? {}, userinfo: values?.userinfo ?? {} } };
}

/** What Sesame knows of the standard claims of a sign-in: email and phone with their verified flags. */
function known(claims: grants.AuthenticatedClaims): StandardClaims {
  const answer: StandardClaims = {};
  if (claims.email) {
    answer.email = claims.email;
    answer.email_verified = claims.emailVerified ?? false;
  }
  if (claims.phoneNumber) {
    answer.phone_number = claims.phoneNumber;
    answer.phone_number_verified = claims.phoneNumberVerified ?? false;
  }
  return answer;
}

/** Whether a value is one the member named for the claim (Core 5.5.1); emails compare without case. */
function matches(name: StandardClaim, value: string | boolean, named: unknown[] | undefined): boolean {
  if (named === undefined) return true;
  if (name === 'email' && typeof value === 'string') {
    return named.some((v) => typeof v === 'string' && v.toLowerCase() === value.toLowerCase());
  }
  return named.some((v) => v === value);
}

/**
 * The standard claims of one member (the ID token or /userinfo): those the granted scope stands for and those
 * the claims parameter named for the member, each only where the sign-in knows it (none invented) and, when
 * the member named a value or values for it, only when it has one of them. `essential` asks nothing more:
 * a claim Sesame cannot give is left out, which Core 5.5.1 says is no error. An email or phone number left out
 * for its value takes its verified flag with it.
 */
export function standardClaims(
  member: ClaimMember,
  scope: string,
  claims: grants.AuthenticatedClaims,
  requested: RequestedClaims | undefined,
): StandardClaims {
  const wanted = new Set<string>(requested?.[member] ?? []);
  for (const s of scope.split(' ')) for (const name of SCOPE_CLAIMS[s] ?? []) wanted.add(name);
  const have = known(claims);
  const answer: StandardClaims = {};
  const withheld = new Set<string>();
  for (const name of ORDER) {
    const value = have[name];
    if (!wanted.has(name) || value === undefined) continue;
    // The flag of an address or number withheld for its value would describe what the RP was not given.
    if (withheld.has(name.replace(/_verified$/, ''))) continue;
    if (matches(name, value, requested?.values[member][name])) answer[name] = value;
    else withheld.add(name);
  }
  return answer;
}
