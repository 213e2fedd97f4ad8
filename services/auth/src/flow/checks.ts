/**
 * A journey's named check, in the spirit of node-oidc-provider's interaction policy: "is this still to be done
 * for this flow?". A journey lists its checks in order; the first unmet one decides the page it shows.
 */
export interface FlowCheck<F> {
  name: string;
  unmet(flow: F): boolean;
}

/** The name of the first check the flow does not meet yet; undefined: the journey can finish. */
export function firstUnmetOf<F, const C extends readonly FlowCheck<F>[]>(
  checks: C,
  flow: F,
): C[number]['name'] | undefined {
  return checks.find((check) => check.unmet(flow))?.name;
}
