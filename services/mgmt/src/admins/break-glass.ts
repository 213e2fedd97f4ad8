/**
 * SESAME_ADMIN_BREAK_GLASS: whether the bootstrap admin key keeps working once a tenant has an Owner.
 * - `off` (default): the key only sets up an empty install (first tenant, first Owner invitation).
 * - `on`: the key acts as an Owner everywhere; development and test only (the embedded default sets it).
 * - `on-until:<ISO 8601 time>`: on until that time, which must be in the future and at most 24 hours after
 *   the start; the only form production accepts, so break-glass is set for one start and never lingers.
 */
export type BreakGlass = { kind: 'off' } | { kind: 'on' } | { kind: 'until'; untilMs: number };

export const BREAK_GLASS_MAX_MS = 24 * 3600 * 1000;

/** The setting's value, or a message saying what is wrong with it. */
export function parseBreakGlass(value: string | undefined): BreakGlass | string {
  const v = (value ?? '').trim();
  if (v === '' || v === 'off') return { kind: 'off' };
  if (v === 'on') return { kind: 'on' };
  const until = /^on-until:(.+)$/.exec(v);
  if (until) {
    const ms = Date.parse(until[1]!);
    if (Number.isFinite(ms)) return { kind: 'until', untilMs: ms };
    return 'on-until: must be followed by an ISO 8601 time, such as on-until:2026-01-01T12:00:00Z';
  }
  return 'must be off, on, or on-until:<ISO 8601 time>';
}

/** Why a production start must refuse this setting, or undefined when it may start. */
export function breakGlassProductionProblem(setting: BreakGlass, nowMs: number): string | undefined {
  if (setting.kind === 'on') {
    return 'SESAME_ADMIN_BREAK_GLASS: `on` is refused in production; set on-until:<time within 24 hours> for this start';
  }
  if (
    setting.kind === 'until' &&
    (setting.untilMs <= nowMs || setting.untilMs - nowMs > BREAK_GLASS_MAX_MS)
  ) {
    return 'SESAME_ADMIN_BREAK_GLASS: on-until must be in the future and at most 24 hours from this start';
  }
  return undefined;
}

export function breakGlassActive(setting: BreakGlass, nowMs: number): boolean {
  return setting.kind === 'on' || (setting.kind === 'until' && nowMs < setting.untilMs);
}
