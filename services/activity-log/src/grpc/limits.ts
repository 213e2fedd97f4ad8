import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@sesame/oauth';

/** Query limits (spec 8), enforced by the gRPC methods as well as by the HTTP endpoints in front of them. */
export const activityLimits = { defaultPageSize: DEFAULT_PAGE_SIZE, maxPageSize: MAX_PAGE_SIZE } as const;
export const adminLimits = {
  defaultTake: 300,
  maxTake: 500,
  maxSkip: 1000,
  maxSpanMs: 30 * 24 * 3600 * 1000,
} as const;
