import { type RecencyLinks, RecencyList } from '@sesame/platform';
import { authMethodTypes } from './actions';
import type { FlowEventFacts } from './schema';

/**
 * The sign-in funnel, counted from the recorded flow events in this one place (the activity-log service
 * feeds it every event it consumes). Each stage is counted at most once per flow:
 *
 * | stage      | the first event of the flow that…                                                   |
 * |------------|--------------------------------------------------------------------------------------|
 * | started    | starts a sign-in: auth_start_oidc, auth_start_native (CIBA), auth_start_ama (phone)  |
 * | identified | names the person (userId or userAlias) or attempts a proof (a verification, device_auth) |
 * | proven     | is a successful proof: email/SMS/biometric verification success, device_auth not failed |
 * | consented  | approves a consent page (desktop_consent, ama_consent with consentDecision approve)  |
 * | completed  | ends it successfully: auth_complete, auth_native_complete (status success or none)   |
 * | failed     | carries status failure, blocked or suspected (a flow may fail and still complete)     |
 * | abandoned  | —: a started flow with no completion and no event for abandonAfterMs (swept)           |
 *
 * Labels stay bounded: stage (7 values), method (fido2, email_otp, email_magic_link, device_only, none:
 * the authMethodType known for the flow so far, `other` for a value this version does not know), flow
 * (authentication, transaction, ciba, enrollment, other) and app: the app id only for the apps the operator
 * lists (`apps`, at most maxLabelledApps), `other` for every other app. Never a user, an email, an IP or a
 * flow id, and never an unlisted app id: tenants create apps, so their ids are unbounded.
 * Flows are followed in memory (bounded by maxOpenFlows; the oldest is dropped uncounted, and counted as
 * sesame_signin_funnel_untracked_total) by the pod that consumes their partition; a flow whose start this
 * pod did not see (a rebalance, a restart) is not counted.
 */
export const funnelStages = [
  'started',
  'identified',
  'proven',
  'consented',
  'completed',
  'failed',
  'abandoned',
] as const;
export type FunnelStage = (typeof funnelStages)[number];
const methods = new Set<string>(authMethodTypes);
const flowTypes = new Set(['authentication', 'transaction', 'ciba', 'enrollment']);

export const maxLabelledApps = 20;

export interface FunnelCounters {
  stage(labels: { stage: FunnelStage; method: string; flow: string; app: string }): void;
  /** A followed flow dropped because maxOpenFlows flows were open. */
  untracked(): void;
}

export interface FunnelOptions {
  counters: FunnelCounters;
  /** A started flow with no event for this long and no completion is abandoned (default 30 minutes). */
  abandonAfterMs?: number;
  maxOpenFlows?: number;
  /** App ids that get their own `app` label value (at most maxLabelledApps); every other app is `other`. */
  apps?: readonly string[];
  now?: () => number;
}

interface OpenFlow extends RecencyLinks<OpenFlow> {
  id: string;
  app: string;
  method: string;
  flow: string;
  /** The stages counted for the flow, one bit each (stageBit): a number, not a Set per open flow. */
  reached: number;
  lastSeen: number;
}

/** A stage's bit in OpenFlow.reached. */
const stageBit = (stage: FunnelStage) => 1 << funnelStages.indexOf(stage);

const startActions = new Set(['auth_start_oidc', 'auth_start_native', 'auth_start_ama']);
const proofSuccesses = new Set([
  'email_verification_success',
  'sms_verification_success',
  'biometric_verification_success',
]);
const proofAttempts = new Set([
  ...proofSuccesses,
  'email_verification_failure',
  'sms_verification_failure',
  'device_auth',
]);
const failedStatuses = new Set(['failure', 'blocked', 'suspected']);

/** The stages one event reaches (before the once-per-flow rule). */
export function stagesOf(event: FlowEventFacts): FunnelStage[] {
  const stages: FunnelStage[] = [];
  const failed = event.status !== undefined && failedStatuses.has(event.status);
  if (startActions.has(event.action)) stages.push('started');
  if (event.userId || event.userAlias || proofAttempts.has(event.action)) stages.push('identified');
  if (proofSuccesses.has(event.action) || (event.action === 'device_auth' && !failed)) stages.push('proven');
  if (
    (event.action === 'desktop_consent' || event.action === 'ama_consent') &&
    event.consentDecision === 'approve'
  )
    stages.push('consented');
  if ((event.action === 'auth_complete' || event.action === 'auth_native_complete') && !failed)
    stages.push('completed');
  if (failed) stages.push('failed');
  return stages;
}

export interface SigninFunnel {
  observe(event: FlowEventFacts): void;
  /** Counts as abandoned every open flow that has been quiet for abandonAfterMs; returns how many. */
  sweep(): number;
  /** Flows followed now. */
  readonly open: number;
}

/** The last `capacity` ids added, for membership tests: a Set beside a ring of its ids in the order added. */
class RecentIds {
  private readonly set = new Set<string>();
  private readonly ring: string[] = [];
  private next = 0;

  constructor(private readonly capacity: number) {}

  has(id: string): boolean {
    return this.set.has(id);
  }

  add(id: string): void {
    if (this.set.has(id)) return;
    this.set.add(id);
    if (this.ring.length < this.capacity) {
      this.ring.push(id);
      return;
    }
    this.set.delete(this.ring[this.next]!);
    this.ring[this.next] = id;
    this.next = (this.next + 1) % this.capacity;
  }
}

export function createSigninFunnel(options: FunnelOptions): SigninFunnel {
  const { counters, abandonAfterMs = 30 * 60_000, maxOpenFlows = 100_000, now = Date.now } = options;
  const apps = new Set(options.apps ?? []);
  if (apps.size > maxLabelledApps)
    throw new RangeError(`at most ${maxLabelledApps} apps get their own funnel label, not ${apps.size}`);
  const flows = new Map<string, OpenFlow>();
  // The quietest flow first (not the Map's own order: each drop walked its holes at the limit).
  const quietest = new RecencyList<OpenFlow>();
  // Flows that completed or were abandoned lately: a redelivered start must not open them again.
  const closed = new RecentIds(maxOpenFlows);
  const close = (f: OpenFlow) => {
    flows.delete(f.id);
    quietest.remove(f);
    closed.add(f.id);
  };
  const count = (f: OpenFlow, stage: FunnelStage) => {
    const bit = stageBit(stage);
    if (f.reached & bit) return;
    f.reached |= bit;
    counters.stage({ stage, method: f.method, flow: f.flow, app: f.app });
  };
  return {
    get open() {
      return flows.size;
    },
    observe(event) {
      const stages = stagesOf(event);
      let f = flows.get(event.flowId);
      if (!f) {
        if (!stages.includes('started') || closed.has(event.flowId)) return;
        const app = apps.has(event.appId) ? event.appId : 'other';
        f = {
          id: event.flowId,
          app,
          method: 'none',
          flow: 'authentication',
          reached: 0,
          lastSeen: 0,
          older: undefined,
          newer: undefined,
        };
        if (flows.size >= maxOpenFlows) {
          const dropped = quietest.shift();
          if (dropped) flows.delete(dropped.id);
          counters.untracked();
        }
        flows.set(f.id, f);
      }
      if (event.authMethodType) f.method = methods.has(event.authMethodType) ? event.authMethodType : 'other';
      if (event.flowType) f.flow = flowTypes.has(event.flowType) ? event.flowType : 'other';
      f.lastSeen = Math.max(f.lastSeen, now());
      for (const stage of stages) count(f, stage);
      // A completed flow is done: nothing later can abandon it.
      if (f.reached & stageBit('completed')) close(f);
      else quietest.touch(f);
    },
    sweep() {
      const before = now() - abandonAfterMs;
      let abandoned = 0;
      for (let f = quietest.oldest(); f !== undefined && f.lastSeen <= before; f = quietest.oldest()) {
        close(f);
        count(f, 'abandoned');
        abandoned++;
      }
      return abandoned;
    },
  };
}
