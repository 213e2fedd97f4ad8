/**
 * What support staff ask of Sesame, in one place: find a person, read what happened to their sign-ins, act on
 * their devices and memberships, export the records. The console's Users and Activity pages, the admin API's
 * support routes and the CLI's `logs` command are built on this port; mgmt serves it from auth (people,
 * devices, memberships) and activity-log (flows) over gRPC. Every method is scoped to one tenant: nothing of
 * another tenant is ever returned, and an identifier of another tenant's person or flow is "not found".
 */

/** How a search string was read: an exact (case-insensitive) email, a user ID, or an app's alias. */
export type UserMatch = 'email' | 'user_id' | 'alias' | 'email_prefix';

export interface SupportUserSummary {
  userId: string;
  email: string;
  /** Which reading of the search found this person. */
  matchedBy: UserMatch;
}

export interface SupportDevice {
  deviceId: string;
  /** A readable name ("Chrome on macOS") when the device reported none of its own. */
  name: string;
  os: string;
  browser: string;
  /** Epoch ms. */
  firstSeen: number;
  lastSeen: number;
  /** Passkeys registered on this device. */
  passkeys: number;
  blocked: boolean;
}

export interface SupportMembership {
  appId: string;
  appName: string;
  alias?: string;
  /** Epoch ms; absent when the person never signed in to the app. */
  firstLogin?: number;
  lastLogin?: number;
  confirmed: boolean;
}

export interface SupportUserDetail {
  userId: string;
  email: string;
  devices: SupportDevice[];
  memberships: SupportMembership[];
  /** Epoch ms when an administrator disabled the person in this tenant; absent while enabled. */
  disabledAt?: number;
  /** Epoch ms (issue 38); absent when auth did not say. */
  createdAt?: number;
  /** The phone number with all but its last two digits hidden; absent: none. */
  phoneMasked?: string;
  /** Absent: none known (an empty list). */
  passkeys?: SupportPasskey[];
}

/** One signed-in browser session of a person (issue 38): where, when, and the apps it signed in to. */
export interface SupportSession {
  sid: string;
  /** Plain words of the user agent, each part only when it said it. */
  deviceName: string;
  os: string;
  browser: string;
  /** "Berlin, DE" from the IP location database; empty when unknown. */
  place: string;
  /** Epoch ms: the session's first sign-in and its latest. */
  startedAt: number;
  lastSeenAt: number;
  /** The apps (id and name) it signed in to; an app removed since keeps its client id as the name. */
  apps: { clientId: string; name: string }[];
}

/** A passkey of the person (issue 38). Times epoch ms. */
export interface SupportPasskey {
  credentialId: string;
  /** The authenticator model from the AAGUID list; absent when unknown. */
  model?: string;
  createdAt: number;
  lastUsedAt?: number;
  deviceId: string;
  deviceName: string;
  suspected: boolean;
}

/** A row of the tenant's list of people (issue 38). Times epoch ms. */
export interface ListedPerson {
  userId: string;
  email: string;
  createdAt: number;
  lastSignIn?: number;
  disabled: boolean;
  passkeys: number;
}

export interface PeoplePage {
  people: ListedPerson[];
  /** Opaque keyset position of the next older page; absent on the last page. */
  nextCursor?: string;
}

/**
 * One flow record: the activity-logs record of spec 2.4 exactly as the HTTP endpoint answers it (same member
 * names and meaning), plus `email` when the flow was about a known person (visible only to administrators of
 * the tenant, never in the spec's endpoint).
 */
export type FlowRecord = Record<string, unknown> & {
  id: string;
  timestamp: number;
  applicationId: string;
  userId?: string;
  email?: string;
  /** The address typed in the flow (lower-case), with or without an account; administrators only, like email. */
  attemptedEmail?: string;
  /** The W3C trace id of the flow's latest traced step (tracing on); administrators only, like email. */
  traceId?: string;
  status?: string;
  flowType?: string;
  authMethodType?: string;
  errorCode?: string;
  failureReason?: string;
  events: { id: string; timestamp: number; payload: { flowId: string; details: Record<string, unknown> } }[];
};

export interface FlowFilter {
  appId?: string;
  userId?: string;
  status?: string;
  flowType?: string;
  authMethodType?: string;
  /** The address typed in the flow (lower-case), with or without an account. */
  attemptedEmail?: string;
  /** Epoch ms, inclusive. */
  from?: number;
  /** Epoch ms, exclusive. */
  to?: number;
}

/** Whose records an erasure deletes: a person's (user id), an address's (typed in flows), or both. */
export interface EraseTarget {
  userId?: string;
  attemptedEmail?: string;
}

export interface FlowPage {
  flows: FlowRecord[];
  /**
   * Opaque; hands back the next older page. Stable while new records arrive (it is a position in
   * (timestamp, id) order, not an offset). Absent on the last page.
   */
  nextCursor?: string;
}

export interface SupportPort {
  /** Email (exact, case-insensitive), user ID, or alias (of `appId` when given, else of any app of the tenant). */
  findUsers(tenantId: string, query: string, appId?: string): Promise<SupportUserSummary[]>;
  /** Undefined when the user is not a person of this tenant. */
  userDetail(tenantId: string, userId: string): Promise<SupportUserDetail | undefined>;
  /**
   * The person's signed-in sessions in the tenant, newest sign-in first; undefined when the user is not a person
   * of this tenant.
   */
  userSessions(tenantId: string, userId: string): Promise<SupportSession[] | undefined>;
  /** Newest first. `limit` is at most 200. */
  listFlows(tenantId: string, filter: FlowFilter, limit: number, cursor?: string): Promise<FlowPage>;
  /** Undefined when the flow is not of this tenant. */
  getFlow(tenantId: string, flowId: string): Promise<FlowRecord | undefined>;
  /**
   * Every record matching the filter, newest first, streamed (bounded memory at any size), in batches of a few
   * records: one await per batch, not per record (an async step per record kept each record alive across
   * young collections and promoted it: docs/performance.md, the export).
   */
  exportFlows(tenantId: string, filter: FlowFilter): AsyncIterable<FlowRecord[]>;
  /** How many records match the filter ("No account — N sign-in attempts"). */
  countFlows(tenantId: string, filter: FlowFilter): Promise<number>;
  /** Deletes the records of the target (user id or typed address, either matching); returns how many. */
  eraseFlows(tenantId: string, target: EraseTarget): Promise<number>;
  /**
   * The distinct addresses typed in the tenant's sign-ins that start with `prefix` (3+ characters, any case), in
   * address order, at most `limit` (1..50): how support finds a person who never got in by the first letters.
   */
  attemptedEmails(tenantId: string, prefix: string, limit: number): Promise<string[]>;
  /** The tenant's people newest first; `limit` at most 200. */
  listPeople(tenantId: string, limit: number, cursor?: string): Promise<PeoplePage>;
  /** False when the person is not of this tenant or the passkey is not theirs. */
  removePasskey(tenantId: string, userId: string, credentialId: string): Promise<boolean>;
  /** Undefined when the person is not of this tenant; else whether a number was removed. */
  removePhoneNumber(tenantId: string, userId: string): Promise<boolean | undefined>;
}
