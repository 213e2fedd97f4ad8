import type { AuthorizationRequest } from '../authorize';
import type { DeviceFacts } from '../users/model';
import type { Flow, PendingPoolName } from './flow';

/**
 * The stored form of a pending sign-in (issue 42): a flow started by GET /authorize that nobody acted on yet.
 * Most starts never go further (a flood, a tab left open), so the record keeps only what the flow was made
 * of, as one JSON array without key names: the validated request as its parameters (scope, acr_values and
 * ui_locales as the space-separated strings they came as), the device facts as a row. `decodePendingFlow`
 * gives back the very flow `newFlow` made. A flow of another shape (not at `identify`, or with fields a start
 * does not set) is kept as its JSON in the array instead: pending, but not compact.
 */

const COMPACT = 1;
const WHOLE = 2;

/** The request's fields in their place in the record; scope, acrValues and uiLocales are lists. */
const REQUEST_FIELDS = [
  'clientId',
  'redirectUri',
  'scope',
  'state',
  'nonce',
  'prompt',
  'maxAge',
  'acrValues',
  'loginHint',
  'uiLocales',
  'codeChallenge',
  'codeChallengeMethod',
  'dpopJkt',
  'customMessage',
  'auxLink',
  'boundTo',
  'claims',
] as const satisfies readonly (keyof AuthorizationRequest)[];
const LISTS = new Set<string>(['scope', 'acrValues', 'uiLocales']);
const FACTS = ['deviceName', 'osType', 'osVersion', 'browserType', 'browserVersion'] as const;

/** The fields a new flow may have (newFlow); any other one makes the flow be stored whole. */
const START_FIELDS = new Set([
  'id',
  'tenantId',
  'appId',
  'clientId',
  'appName',
  'sessionKey',
  'request',
  'locale',
  'createdAt',
  'expiresAt',
  'step',
  'clientIp',
  'originatingDevice',
  'email',
  'blockedCountries',
  'firstParty',
]);

/** A list as one space-separated string when that reads back the same, else as it is. */
const list = (values: string[]) =>
  values.every((v) => v !== '' && !v.includes(' ')) ? values.join(' ') : values;
const unlist = (value: unknown) =>
  Array.isArray(value) ? (value as string[]) : value === '' ? [] : String(value).split(' ');

/** Trailing nulls dropped: absent optional parameters at the end cost nothing. */
function trimmed(row: unknown[]): unknown[] {
  let end = row.length;
  while (end > 0 && row[end - 1] === null) end--;
  return row.slice(0, end);
}

function compactRequest(request: AuthorizationRequest): unknown[] | undefined {
  const known = new Set<string>(REQUEST_FIELDS);
  for (const [key, value] of Object.entries(request))
    if (value !== undefined && !known.has(key)) return undefined;
  return trimmed(
    REQUEST_FIELDS.map((field) => {
      const value = request[field];
      if (value === undefined) return null;
      return LISTS.has(field) ? list(value as string[]) : value;
    }),
  );
}

function expandRequest(row: unknown[]): AuthorizationRequest {
  const request: Record<string, unknown> = {};
  REQUEST_FIELDS.forEach((field, i) => {
    const value = row[i];
    if (value === null || value === undefined) return;
    request[field] = LISTS.has(field) ? unlist(value) : value;
  });
  return request as unknown as AuthorizationRequest;
}

/** The record of a pending flow in `pool` (flow-store.ts keeps it under the flow's key, which holds its id). */
export function encodePendingFlow(flow: Flow, pool: PendingPoolName): string {
  const poolFlag = pool === 'flow' ? 0 : 1;
  const compact = compactRow(flow);
  return JSON.stringify(compact ? [COMPACT, poolFlag, ...compact] : [WHOLE, poolFlag, flow]);
}

function compactRow(flow: Flow): unknown[] | undefined {
  if (flow.step !== 'identify' || flow.journey !== undefined) return undefined;
  for (const [key, value] of Object.entries(flow))
    if (value !== undefined && !START_FIELDS.has(key)) return undefined;
  if (flow.email !== flow.request.loginHint || flow.clientId !== flow.request.clientId) return undefined;
  const facts = flow.originatingDevice.facts;
  if (Object.keys(facts).length !== FACTS.length || Object.keys(flow.originatingDevice).length !== 2)
    return undefined;
  const request = compactRequest(flow.request);
  if (!request) return undefined;
  return [
    flow.tenantId,
    flow.appId,
    flow.appName,
    flow.sessionKey,
    flow.locale,
    flow.createdAt,
    flow.expiresAt - flow.createdAt,
    flow.clientIp,
    flow.originatingDevice.deviceId,
    FACTS.map((f) => facts[f]),
    request,
    flow.blockedCountries?.length ? flow.blockedCountries : 0,
    flow.firstParty ? 1 : 0,
  ];
}

/** A stored pending record: the flow, and the pool it counts in. Undefined for a confirmed flow's JSON object. */
export function decodePendingFlow(
  id: string,
  raw: string,
): { flow: Flow; pool: PendingPoolName } | undefined {
  if (raw[0] !== '[') return undefined;
  const row = JSON.parse(raw) as unknown[];
  const pool: PendingPoolName = row[1] === 0 ? 'flow' : 'flow-large';
  if (row[0] === WHOLE) return { flow: row[2] as Flow, pool };
  const [
    tenantId,
    appId,
    appName,
    sessionKey,
    locale,
    createdAt,
    lifeMs,
    clientIp,
    deviceId,
    facts,
    requestRow,
    blockedCountries,
    firstParty,
  ] = row.slice(2) as [
    string,
    string,
    string,
    string,
    Flow['locale'],
    number,
    number,
    string,
    string,
    string[],
    unknown[],
    string[] | 0,
    0 | 1,
  ];
  const request = expandRequest(requestRow);
  const flow: Flow = {
    id,
    tenantId,
    appId,
    clientId: request.clientId,
    appName,
    sessionKey,
    request,
    locale,
    createdAt,
    expiresAt: createdAt + lifeMs,
    step: 'identify',
    clientIp,
    originatingDevice: {
      deviceId,
      facts: Object.fromEntries(FACTS.map((f, i) => [f, facts[i]])) as unknown as DeviceFacts,
    },
  };
  if (request.loginHint !== undefined) flow.email = request.loginHint;
  if (blockedCountries) flow.blockedCountries = blockedCountries;
  if (firstParty) flow.firstParty = true;
  return { flow, pool };
}
