import { events, reusingWriter } from '@sesame/proto';
import { plainlyValidWire } from './plain-check';
import { type FlowEventFacts, flowEventWireSchema } from './schema';

/** Header naming the message type of every event on the flow-events topic. */
export const FLOW_EVENT_TYPE = 'sesame.events.v1.FlowEvent';

const hasMembers = (o: object) => {
  for (const _ in o) return true;
  return false;
};

/** One writer for every flow event of the process (reusingWriter: half the CPU of a fresh writer's encode). */
const encodeMessage = reusingWriter(events.FlowEvent);

/** The message built field by field (no fromPartial copy of the whole event): facts are already validated. */
export function encodeFlowEvent(facts: FlowEventFacts): Uint8Array {
  const message: events.FlowEvent = {
    eventId: facts.eventId,
    flowId: facts.flowId,
    tenantId: facts.tenantId,
    appId: facts.appId,
    timestampMs: facts.timestamp,
    action: facts.action,
    clientIp: facts.clientIp,
    userId: facts.userId,
    userAlias: facts.userAlias,
    email: facts.email,
    attemptedEmail: facts.attemptedEmail,
    traceId: facts.traceId,
    accessingDevice: facts.accessingDevice,
    accessingDeviceInfo: facts.accessingDeviceInfo,
    accessingDeviceLocation: facts.accessingDeviceLocation,
    accessingIp: facts.accessingIp,
    authenticatingDevice: facts.authenticatingDevice,
    authenticatingDeviceInfo: facts.authenticatingDeviceInfo,
    authMethodType: facts.authMethodType,
    consentDecision: facts.consentDecision,
    desktopLoginDecision: facts.desktopLoginDecision,
    desktopTransactionDecision: facts.desktopTransactionDecision,
    errorCode: facts.errorCode,
    failureReason: facts.failureReason,
    flowType: facts.flowType,
    status: facts.status,
    isNewAuthenticationDeviceForRp: facts.isNewAuthenticationDeviceForRP,
    extraDetails: hasMembers(facts.details) ? facts.details : undefined,
  };
  return encodeMessage(message);
}

/** Why an event on the topic cannot be folded: it is dead-lettered with this reason. */
export class UndecodableFlowEvent extends Error {
  constructor(
    readonly reason: 'decode_failed' | 'validation_failed',
    message: string,
  ) {
    super(message);
    this.name = 'UndecodableFlowEvent';
  }
}

/** Decodes and validates one message of the flow-events topic; throws UndecodableFlowEvent. */
export function decodeFlowEvent(bytes: Uint8Array): FlowEventFacts {
  let message: events.FlowEvent;
  try {
    message = events.FlowEvent.decode(bytes);
  } catch (err) {
    throw new UndecodableFlowEvent('decode_failed', err instanceof Error ? err.message : String(err));
  }
  const facts = factsOf(message);
  if (plainlyValidWire(facts)) return facts as FlowEventFacts;
  const parsed = flowEventWireSchema.safeParse(facts);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UndecodableFlowEvent(
      'validation_failed',
      `${issue?.path.join('.') || '(event)'}: ${issue?.message}`,
    );
  }
  return parsed.data;
}

const nonEmpty = (s: string | undefined) => (s ? s : undefined);

/**
 * The members of a device or location that are known: unset ones are left out, and so is "" (an older producer
 * could not tell "" from unset). Undefined when none is known.
 */
function knownMembers<T extends object>(m: T | undefined): T | undefined {
  if (!m) return undefined;
  const out: Record<string, unknown> = {};
  let known = false;
  for (const [k, v] of Object.entries(m)) {
    if (v === undefined || v === '') continue;
    out[k] = v;
    known = true;
  }
  return known ? (out as T) : undefined;
}

/** Unset members, "" and empty sub-messages mean "not known at this step": such members are left out. */
function factsOf(m: events.FlowEvent): Record<string, unknown> {
  const facts: Record<string, unknown> = {
    eventId: m.eventId,
    flowId: m.flowId,
    tenantId: m.tenantId,
    appId: m.appId,
    timestamp: m.timestampMs,
    action: m.action,
    clientIp: m.clientIp,
    details: m.extraDetails ?? {},
  };
  const optional: Record<string, unknown> = {
    userId: nonEmpty(m.userId),
    userAlias: nonEmpty(m.userAlias),
    email: nonEmpty(m.email),
    attemptedEmail: nonEmpty(m.attemptedEmail),
    traceId: nonEmpty(m.traceId),
    accessingDevice: nonEmpty(m.accessingDevice),
    accessingDeviceInfo: knownMembers(m.accessingDeviceInfo),
    accessingDeviceLocation: knownMembers(m.accessingDeviceLocation),
    accessingIp: nonEmpty(m.accessingIp),
    authenticatingDevice: nonEmpty(m.authenticatingDevice),
    authenticatingDeviceInfo: knownMembers(m.authenticatingDeviceInfo),
    authMethodType: nonEmpty(m.authMethodType),
    consentDecision: nonEmpty(m.consentDecision),
    desktopLoginDecision: nonEmpty(m.desktopLoginDecision),
    desktopTransactionDecision: nonEmpty(m.desktopTransactionDecision),
    errorCode: nonEmpty(m.errorCode),
    failureReason: nonEmpty(m.failureReason),
    flowType: nonEmpty(m.flowType),
    status: nonEmpty(m.status),
    isNewAuthenticationDeviceForRP: m.isNewAuthenticationDeviceForRp,
  };
  // Assigned only when known, never deleted afterwards: `delete` would turn every event into a slow object.
  for (const key in optional) if (optional[key] !== undefined) facts[key] = optional[key];
  return facts;
}
