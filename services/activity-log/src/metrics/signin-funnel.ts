import { type SigninFunnel, createSigninFunnel } from '@sesame/flow-events';
import { Counter, type Registry } from '@sesame/platform';

export interface FunnelMetrics {
  funnel: SigninFunnel;
  /** Starts the abandonment sweep (every sweepMs). */
  start(): void;
  stop(): void;
}

/**
 * sesame_signin_funnel_total{stage, method, flow, app}: the sign-in funnel of libs/flow-events/src/funnel.ts
 * (stages and labels defined there), counted from the flow events this service consumes.
 */
export function createFunnelMetrics(
  registry: Registry,
  options: { abandonAfterMs: number; sweepMs: number; apps?: readonly string[]; now?: () => number },
): FunnelMetrics {
  const stages = new Counter({
    name: 'sesame_signin_funnel_total',
    help: 'Sign-in flows reaching each funnel stage (started, identified, proven, consented, completed, failed, abandoned) by method, flow type and listed app',
    labelNames: ['stage', 'method', 'flow', 'app'] as const,
    registers: [registry],
  });
  const untracked = new Counter({
    name: 'sesame_signin_funnel_untracked_total',
    help: 'Open sign-in flows dropped from the funnel because too many were open at once',
    registers: [registry],
  });
  const funnel = createSigninFunnel({
    counters: { stage: (labels) => stages.inc(labels), untracked: () => untracked.inc() },
    abandonAfterMs: options.abandonAfterMs,
    apps: options.apps,
    now: options.now,
  });
  let timer: NodeJS.Timeout | undefined;
  return {
    funnel,
    start() {
      timer = setInterval(() => funnel.sweep(), options.sweepMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
