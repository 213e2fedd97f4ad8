import assert from 'node:assert/strict';

/** Asserts a 200 answer of /token whose members are exactly `members`, given sorted (RFC 6749 5.1). */
export function assertTokenMembers(
  res: { status: number; body: Record<string, unknown> },
  members: readonly string[],
): void {
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body).sort(), members);
}
