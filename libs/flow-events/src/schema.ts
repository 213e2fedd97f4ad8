import { z } from 'zod';
import {
  authMethodTypes,
  decisions,
  desktopLoginDecisions,
  errorCodes,
  flowActions,
  flowStatuses,
  flowTypes,
} from './actions';

const id = z.string().min(1).max(200);
const text = z.string().max(2000);
const shortText = z.string().max(200);

const deviceInfo = z
  .object({
    osType: shortText.optional(),
    osVersion: shortText.optional(),
    browserType: shortText.optional(),
    browserVersion: shortText.optional(),
    detectedName: shortText.optional(),
    alias: shortText.optional(),
  })
  .strict();

const location = z
  .object({
    lat: z.number().finite().min(-90).max(90).optional(),
    lng: z.number().finite().min(-180).max(180).optional(),
    city: shortText.optional(),
    country: shortText.optional(),
    state: shortText.optional(),
    source: shortText.optional(),
  })
  .strict();

/** Step-specific members of the event's details object; `action` and `clientIp` are set from the event itself. */
const details = z
  .record(z.union([text, z.number().finite(), z.boolean()]))
  .refine((d) => Object.keys(d).length <= 50, 'at most 50 members')
  .refine(
    (d) => !('action' in d) && !('clientIp' in d),
    'action and clientIp are set from the event, not details',
  );

const epochMs = z.number().int().min(0).max(8.64e15);

/** Record-level facts a step may know (spec 2.4); each is optional and the latest one wins in the record. */
const recordFacts = {
  userId: id.optional(),
  userAlias: shortText.min(1).optional(),
  /** The person's address (auth's normalised form), for support only: never in the spec's activity logs. */
  email: z.string().min(3).max(254).optional(),
  /**
   * The address typed in the flow (trimmed, lower-case), known account or not, proven or not: support finds a
   * failed or abandoned attempt by it. Never in the spec's activity logs.
   */
  attemptedEmail: z.string().min(3).max(254).optional(),
  /** The W3C trace id of the request that recorded the step (tracing on, sampled). Support only. */
  traceId: z
    .string()
    .regex(/^[0-9a-f]{32}$/, 'a W3C trace id')
    .optional(),
  accessingDevice: text.optional(),
  accessingDeviceInfo: deviceInfo.optional(),
  accessingDeviceLocation: location.optional(),
  accessingIp: shortText.optional(),
  authenticatingDevice: text.optional(),
  authenticatingDeviceInfo: deviceInfo.optional(),
  failureReason: text.optional(),
  isNewAuthenticationDeviceForRP: z.boolean().optional(),
};

/**
 * What a service passes for one step of a flow. Strict: enumerated facts must be one of the spec's values,
 * clientIp must be an IP address. `eventId` is generated and `timestamp` taken from the clock when absent.
 */
export const flowEventInputSchema = z
  .object({
    flowId: id,
    eventId: id.optional(),
    tenantId: id,
    appId: id,
    timestamp: epochMs.optional(),
    action: z.enum(flowActions),
    clientIp: z.string().ip(),
    ...recordFacts,
    accessingIp: z.string().ip().optional(),
    authMethodType: z.enum(authMethodTypes).optional(),
    consentDecision: z.enum(decisions).optional(),
    desktopLoginDecision: z.enum(desktopLoginDecisions).optional(),
    desktopTransactionDecision: z.enum(decisions).optional(),
    errorCode: z.enum(errorCodes).optional(),
    flowType: z.enum(flowTypes).optional(),
    status: z.enum(flowStatuses).optional(),
    details: details.optional(),
  })
  .strict();
export type FlowEventInput = z.input<typeof flowEventInputSchema>;

/**
 * What the consumer accepts after decoding: the same structure with looser enumerations (a newer producer may
 * know a value this consumer does not; that is not a reason to dead-letter the event).
 */
export const flowEventWireSchema = z.object({
  eventId: id,
  flowId: id,
  tenantId: id,
  appId: id,
  timestamp: epochMs,
  action: z.string().regex(/^[a-z0-9_]{1,64}$/, 'an action name'),
  clientIp: shortText,
  ...recordFacts,
  authMethodType: shortText.optional(),
  consentDecision: shortText.optional(),
  desktopLoginDecision: shortText.optional(),
  desktopTransactionDecision: shortText.optional(),
  errorCode: shortText.optional(),
  flowType: shortText.optional(),
  status: shortText.optional(),
  details,
});
/** One validated flow event, as published and as consumed. */
export type FlowEventFacts = z.infer<typeof flowEventWireSchema>;
export type DeviceInfoFacts = z.infer<typeof deviceInfo>;
export type LocationFacts = z.infer<typeof location>;
