/** The four values spec 2.2 allows for every `*_last_update`, `*_registration_time` and `*_last_seen` claim. */
export const timeFrames = ['Last 24 hours', 'Last 7 days', 'Last 28 days', 'Over 28 days ago'] as const;
export type TimeFrame = (typeof timeFrames)[number];

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Which of the four time frames an instant falls in, "counted per UTC timezone". Precisely:
 * - `Last 24 hours`: at most 24 hours (86 400 s) before now (or later than now, i.e. clock skew);
 * - otherwise the frame is counted in UTC calendar days: let d be the number of UTC midnights between the
 *   instant's UTC date and today's UTC date (yesterday = 1). `Last 7 days` when d <= 6 (today and the six
 *   UTC dates before it), `Last 28 days` when d <= 27, `Over 28 days ago` from d = 28 on.
 * The rolling first frame keeps "24 hours" literally true; the others follow UTC calendar days, so every
 * pod, whatever its local timezone, answers the same for the same instant. The frames nest: anything
 * within 24 hours is at most one UTC date back.
 */
export function timeFrame(atMs: number, nowMs: number): TimeFrame {
  if (nowMs - atMs <= DAY_MS) return 'Last 24 hours';
  const days = utcDayNumber(nowMs) - utcDayNumber(atMs);
  if (days <= 6) return 'Last 7 days';
  if (days <= 27) return 'Last 28 days';
  return 'Over 28 days ago';
}

/** Days since 1970-01-01 of the instant's UTC calendar date. */
const utcDayNumber = (ms: number) => Math.floor(ms / DAY_MS);
