/**
 * max_age (OIDC Core 3.1.2.1): the allowed time in seconds since the person last actively authenticated; a
 * non-negative integer. A malformed value is ignored (as every max_age was before it was honoured), so a
 * request that worked keeps working; the sign-in re-authenticates when a session is older (prompt.ts).
 */
export function checkMaxAge(maxAge: string | undefined): number | undefined {
  if (maxAge === undefined || !/^\d{1,10}$/.test(maxAge)) return undefined;
  return Number(maxAge);
}
