import assert from 'node:assert/strict';

/** Asserts which flow events were recorded, by action, in order. */
export function assertActions(events: readonly { action: string }[], expected: readonly string[]): void {
  assert.deepEqual(
    events.map((e) => e.action),
    expected,
  );
}
