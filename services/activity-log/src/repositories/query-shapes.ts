import { type FlowListFilter, flowEqualityFields } from '../domain/flow-query';

import type { QueryShape } from '@sesame/mongo';

// The index test (query-shapes.test.ts) checks every shape below against the declared indexes by the
// equality-sort-range rule (@sesame/mongo servesByEsr).

/**
 * Filters a support query may leave to the documents the index finds rather than to the index: each has a
 * handful of values (flow types, methods), so an index on it would narrow a tenant's records little, while
 * one index per combination would cost every write; and under a user's own records (a few hundred at most)
 * any filter is cheap. Nothing else may be residual.
 */
export const residualAllowed: Readonly<Record<string, string>> = {
  flowType: 'four values (authentication, transaction, enrollment, ciba)',
  authMethodType: 'four values (fido2, email_otp, email_magic_link, device_only)',
  'status (with userId)': "a person's own records are few; the user's index narrows them first",
  'userAlias (with userId)': 'the spec query naming both: the user id narrows to one person first',
  'appId (with attemptedEmail)': "an address's attempts are few; the address's index narrows them first",
  'userId (with attemptedEmail)': "an address's attempts are few; the address's index narrows them first",
  'status (with attemptedEmail)': "an address's attempts are few; the address's index narrows them first",
};

const NEWEST_FIRST = { timestamp: -1, flowId: -1 } as const;

/**
 * Which filter members a support listing matches through the index: the tenant, the app, then the user,
 * or else the status. The other members are residual (residualAllowed).
 */
export function flowListShape(filter: FlowListFilter): QueryShape {
  if (filter.attemptedEmail !== undefined) return attemptsShape(filter);
  const equality = ['tenantId'];
  const residual: string[] = [];
  if (filter.appId !== undefined) equality.push('appId');
  if (filter.userId !== undefined) equality.push('userId');
  if (filter.status !== undefined) {
    if (filter.userId !== undefined) residual.push('status (with userId)');
    else equality.push('status');
  }
  if (filter.flowType !== undefined) residual.push('flowType');
  if (filter.authMethodType !== undefined) residual.push('authMethodType');
  const name = `listFlows(${equality.slice(1).concat(residual).join(', ') || 'tenant'})`;
  return { name, equality, sort: { ...NEWEST_FIRST }, range: ['timestamp'], residual };
}

/**
 * A listing by typed address: the address's index (tenant, attemptedEmail) narrows to its attempts first,
 * every other member is residual.
 */
function attemptsShape(filter: FlowListFilter): QueryShape {
  const residual: string[] = [];
  for (const field of ['appId', 'userId', 'status'] as const)
    if (filter[field] !== undefined) residual.push(`${field} (with attemptedEmail)`);
  if (filter.flowType !== undefined) residual.push('flowType');
  if (filter.authMethodType !== undefined) residual.push('authMethodType');
  const name = `listFlows(attemptedEmail${residual.map((r) => `, ${r.split(' ')[0]}`).join('')})`;
  return {
    name,
    equality: ['tenantId', 'attemptedEmail'],
    sort: { ...NEWEST_FIRST },
    range: ['timestamp'],
    residual,
  };
}

/** Every filter by typed address: the address with each combination of the other equality members. */
export function everyAttemptsFilter(): FlowListFilter[] {
  return everyFlowFilter().map((f) => ({ ...f, attemptedEmail: 'x@example.com' }));
}

/** Every combination of a support filter's equality members (time bounds are always a range on timestamp). */
export function everyFlowFilter(): FlowListFilter[] {
  const out: FlowListFilter[] = [];
  for (let bits = 0; bits < 1 << flowEqualityFields.length; bits++) {
    const f: Record<string, string> = {};
    flowEqualityFields.forEach((field, i) => {
      if (bits & (1 << i)) f[field] = 'x';
    });
    out.push(f);
  }
  return out;
}

/** The spec's activity-logs query (spec 4.6): by app, optionally by user id or alias (or both). */
export function specQueryShape(q: { userId?: string; userAlias?: string }): QueryShape {
  const equality = ['tenantId', 'appId'];
  const residual: string[] = [];
  if (q.userId !== undefined) equality.push('userId');
  if (q.userAlias !== undefined) (q.userId !== undefined ? residual : equality).push('userAlias');
  return {
    name: `query(${equality.slice(2).join(', ') || 'app'})`,
    equality,
    sort: { ...NEWEST_FIRST },
    range: ['timestamp'],
    residual: residual.map((f) => `${f} (with userId)`),
  };
}

/** Every query shape the activity-log repository issues, for the index test. */
export function activityLogQueryShapes(): QueryShape[] {
  return [
    ...everyFlowFilter().map(flowListShape),
    ...everyAttemptsFilter().map(flowListShape),
    // countFlows reads the listing's index; eraseFlows finds a person's and an address's records by theirs.
    { name: 'eraseFlows(userId)', equality: ['tenantId', 'userId'], sort: {}, range: [], residual: [] },
    {
      name: 'eraseFlows(attemptedEmail)',
      equality: ['tenantId', 'attemptedEmail'],
      sort: {},
      range: [],
      residual: [],
    },
    // attemptedEmails: the next address after a position, one seek on the address index each.
    {
      name: 'attemptedEmails(prefix)',
      equality: ['tenantId'],
      sort: { attemptedEmail: 1 },
      range: ['attemptedEmail'],
      residual: [],
    },
    specQueryShape({}),
    specQueryShape({ userId: 'x' }),
    specQueryShape({ userAlias: 'x' }),
    specQueryShape({ userId: 'x', userAlias: 'x' }),
    { name: 'getFlow / fold reads', equality: ['tenantId', 'flowId'], sort: {}, range: [], residual: [] },
  ];
}
