/** JSON with object keys sorted, so equal values compare equal whatever order their keys were set in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/**
 * The `diff` of administrator_update_application / _update_general_settings (spec 2.5: a String): a JSON
 * object of the changed fields, each `{from, to}` (absent values are null), in field order.
 */
export function settingsDiff<T extends object>(
  before: T,
  after: T,
  fields: ReadonlyArray<keyof T>,
): string | undefined {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of fields) {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (canonical(from) !== canonical(to)) changes[String(field)] = { from, to };
  }
  return Object.keys(changes).length ? JSON.stringify(changes) : undefined;
}
