import { OAuthError } from '@sesame/platform';

/**
 * A check for assert.throws and assert.rejects: the error is an OAuthError whose members named here have
 * exactly these values.
 */
export const isOAuthError =
  (expected: { code?: string; status?: number; description?: string }) => (err: unknown) =>
    err instanceof OAuthError &&
    Object.entries(expected).every(([member, value]) => err[member as keyof typeof expected] === value);
