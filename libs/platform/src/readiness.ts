import type { Logger } from './logger';

/** One thing a service needs to be ready (a store, a signing key): checked by /readyz and gRPC health. */
export interface Readiness {
  name: string;
  check: () => Promise<void>;
}

export interface ReadinessReport {
  ok: boolean;
  /** Per check: 'ok' or 'unavailable' (the driver's message, with hosts and limits, goes to the log only). */
  checks: Record<string, string>;
}

const CHECK_TIMEOUT_MS = 2000;

/** Runs every check at once, each bounded in time. */
export async function runReadinessChecks(readiness: Readiness[], logger?: Logger): Promise<ReadinessReport> {
  const checks: Record<string, string> = {};
  let ok = true;
  await Promise.all(
    readiness.map(async ({ name, check }) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`${name} readiness timed out after ${CHECK_TIMEOUT_MS} ms`)),
              CHECK_TIMEOUT_MS,
            );
          }),
        ]);
        checks[name] = 'ok';
      } catch (err) {
        ok = false;
        checks[name] = 'unavailable';
        logger?.warn({ err, check: name }, 'readiness check failed');
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { ok, checks };
}

/**
 * One readiness truth for a pod: the /readyz checks, run every intervalMs and on every /readyz request,
 * report each change to onChange (which sets the gRPC health status that Kubernetes probes). Without it,
 * gRPC health said SERVING from start to SIGTERM while /readyz could say a store was down.
 */
export class ReadinessMonitor {
  private last: boolean | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly readiness: Readiness[],
    private readonly onChange: (ready: boolean) => void,
    private readonly intervalMs: number,
  ) {}

  async check(): Promise<ReadinessReport> {
    const report = await runReadinessChecks(this.readiness);
    if (report.ok !== this.last) {
      this.last = report.ok;
      this.onChange(report.ok);
    }
    return report;
  }

  /** Checks now, then every intervalMs until stop(). */
  async start(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
