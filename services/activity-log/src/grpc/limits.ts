/** Query limits (spec 8), enforced by the gRPC methods as well as by the HTTP endpoints in front of them. */
export const activityLimits = { defaultPageSize: 100, maxPageSize: 5000 } as const;
export const adminLimits = {
  defaultTake: 300,
  maxTake: 500,
  maxSkip: 1000,
  maxSpanMs: 30 * 24 * 3600 * 1000,
} as const;
