import { MgmtError } from '@sesame/platform';
import type {
  EraseTarget,
  FlowFilter,
  FlowPage,
  FlowRecord,
  ListedPerson,
  PeoplePage,
  SupportPort,
  SupportSession,
  SupportUserDetail,
  SupportUserSummary,
} from '../support/port';

/** A person of one tenant as the memory port keeps them: the detail, and the alias per app. */
export interface MemoryPerson extends SupportUserDetail {
  tenantId: string;
  /** The list's fields (issue 38): the list is newest first by createdAt (absent: 0). */
  disabled?: boolean;
  lastSignIn?: number;
}

/** A flow record of one tenant. */
export type MemoryFlow = FlowRecord & { tenantId: string };

const newestFirst = (a: FlowRecord, b: FlowRecord) =>
  b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const encodeCursor = (f: FlowRecord) =>
  Buffer.from(JSON.stringify([f.timestamp, f.id])).toString('base64url');

function decodeCursor(cursor: string): [number, string] {
  try {
    const [timestamp, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (typeof timestamp === 'number' && typeof id === 'string') return [timestamp, id];
  } catch {
    // falls through
  }
  throw new MgmtError(400, 'invalid_request', 'invalid cursor', { cursor: 'is not a cursor of this list' });
}

/** Older than the position (timestamp, id) in newest-first order. */
const after = (f: FlowRecord, [timestamp, id]: [number, string]) =>
  f.timestamp < timestamp || (f.timestamp === timestamp && f.id < id);

function matches(f: FlowRecord, filter: FlowFilter): boolean {
  return (
    (filter.appId === undefined || f.applicationId === filter.appId) &&
    (filter.userId === undefined || f.userId === filter.userId) &&
    (filter.status === undefined || f.status === filter.status) &&
    (filter.flowType === undefined || f.flowType === filter.flowType) &&
    (filter.authMethodType === undefined || f.authMethodType === filter.authMethodType) &&
    (filter.attemptedEmail === undefined || f.attemptedEmail === filter.attemptedEmail) &&
    (filter.from === undefined || f.timestamp >= filter.from) &&
    (filter.to === undefined || f.timestamp < filter.to)
  );
}

/** A record as the port answers it: without the tenant the memory port files it under. */
const withoutTenant = ({ tenantId: _t, ...flow }: MemoryFlow): FlowRecord => structuredClone(flow);

/**
 * The support port in memory, for unit tests only (never wired into production code): people and flows the
 * test adds, answered per the port's contract: tenant-isolated, newest first in (timestamp, id) order, a
 * cursor that is a position (stable while records arrive), the filters, the email/user ID/alias/address-start
 * readings.
 */
export class MemorySupport implements SupportPort {
  readonly people: MemoryPerson[] = [];
  readonly flows: MemoryFlow[] = [];
  /** Signed-in sessions per `${tenantId} ${userId}`. */
  readonly sessions = new Map<string, SupportSession[]>();

  addPerson(person: MemoryPerson): this {
    this.people.push(person);
    return this;
  }

  addFlow(flow: MemoryFlow): this {
    this.flows.push(flow);
    return this;
  }

  async findUsers(tenantId: string, query: string, appId?: string): Promise<SupportUserSummary[]> {
    const q = query.trim();
    if (!q) return [];
    const found = new Map<string, SupportUserSummary>();
    for (const p of this.people.filter((x) => x.tenantId === tenantId)) {
      const summary = (matchedBy: SupportUserSummary['matchedBy']) => ({
        userId: p.userId,
        email: p.email,
        matchedBy,
      });
      if (p.email.toLowerCase() === q.toLowerCase()) found.set(p.userId, summary('email'));
      else if (p.userId === q) found.set(p.userId, summary('user_id'));
      else if (p.memberships.some((m) => m.alias === q && (appId === undefined || m.appId === appId))) {
        found.set(p.userId, summary('alias'));
      }
    }
    // The start of an address (issue 38), from 3 characters on, in address order after the other readings.
    const start = q.toLowerCase();
    const starting = this.people
      .filter((p) => p.tenantId === tenantId && start.length >= 3 && p.email.toLowerCase().startsWith(start))
      .sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
    for (const p of starting) {
      if (!found.has(p.userId))
        found.set(p.userId, { userId: p.userId, email: p.email, matchedBy: 'email_prefix' });
    }
    return [...found.values()];
  }

  async userDetail(tenantId: string, userId: string): Promise<SupportUserDetail | undefined> {
    const p = this.people.find((x) => x.tenantId === tenantId && x.userId === userId);
    if (!p) return undefined;
    const { tenantId: _t, disabled: _d, lastSignIn: _l, ...detail } = p;
    return structuredClone(detail);
  }

  async userSessions(tenantId: string, userId: string): Promise<SupportSession[] | undefined> {
    if (!this.people.some((x) => x.tenantId === tenantId && x.userId === userId)) return undefined;
    return structuredClone(this.sessions.get(`${tenantId} ${userId}`) ?? []);
  }

  /** Newest first by (createdAt, userId); the cursor is the last user id shown. */
  async listPeople(tenantId: string, limit: number, cursor?: string): Promise<PeoplePage> {
    const all = this.people
      .filter((p) => p.tenantId === tenantId)
      .sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0) || (a.userId < b.userId ? 1 : -1));
    const from = cursor ? all.findIndex((p) => p.userId === cursor) + 1 : 0;
    const page = all.slice(from, from + limit);
    return {
      people: page.map(
        (p): ListedPerson => ({
          userId: p.userId,
          email: p.email,
          createdAt: p.createdAt ?? 0,
          ...(p.lastSignIn ? { lastSignIn: p.lastSignIn } : {}),
          disabled: p.disabled ?? false,
          passkeys: p.passkeys?.length ?? 0,
        }),
      ),
      ...(from + limit < all.length ? { nextCursor: page.at(-1)!.userId } : {}),
    };
  }

  async removePasskey(tenantId: string, userId: string, credentialId: string): Promise<boolean> {
    const p = this.people.find((x) => x.tenantId === tenantId && x.userId === userId);
    const i = p?.passkeys?.findIndex((k) => k.credentialId === credentialId) ?? -1;
    if (!p?.passkeys || i < 0) return false;
    p.passkeys.splice(i, 1);
    return true;
  }

  async removePhoneNumber(tenantId: string, userId: string): Promise<boolean | undefined> {
    const p = this.people.find((x) => x.tenantId === tenantId && x.userId === userId);
    if (!p) return undefined;
    if (!p.phoneMasked) return false;
    p.phoneMasked = undefined;
    return true;
  }

  async listFlows(tenantId: string, filter: FlowFilter, limit: number, cursor?: string): Promise<FlowPage> {
    const position = cursor === undefined ? undefined : decodeCursor(cursor);
    const size = Math.max(1, Math.min(200, limit));
    const all = this.flows
      .filter((f) => f.tenantId === tenantId && matches(f, filter) && (!position || after(f, position)))
      .sort(newestFirst);
    const flows = all.slice(0, size).map(withoutTenant);
    return all.length > size ? { flows, nextCursor: encodeCursor(flows.at(-1)!) } : { flows };
  }

  async getFlow(tenantId: string, flowId: string): Promise<FlowRecord | undefined> {
    const f = this.flows.find((x) => x.tenantId === tenantId && x.id === flowId);
    return f && withoutTenant(f);
  }

  async countFlows(tenantId: string, filter: FlowFilter): Promise<number> {
    return this.flows.filter((f) => f.tenantId === tenantId && matches(f, filter)).length;
  }

  async attemptedEmails(tenantId: string, prefix: string, limit: number): Promise<string[]> {
    const start = prefix.trim().toLowerCase();
    const emails = new Set<string>();
    for (const f of this.flows)
      if (f.tenantId === tenantId && f.attemptedEmail?.startsWith(start)) emails.add(f.attemptedEmail);
    return [...emails].sort().slice(0, limit);
  }

  async eraseFlows(tenantId: string, target: EraseTarget): Promise<number> {
    const erased = (f: MemoryFlow) =>
      f.tenantId === tenantId &&
      ((target.userId !== undefined && f.userId === target.userId) ||
        (target.attemptedEmail !== undefined && f.attemptedEmail === target.attemptedEmail));
    const before = this.flows.length;
    const kept = this.flows.filter((f) => !erased(f));
    this.flows.splice(0, this.flows.length, ...kept);
    return before - kept.length;
  }

  async *exportFlows(tenantId: string, filter: FlowFilter): AsyncIterable<FlowRecord[]> {
    let cursor: string | undefined;
    do {
      const page = await this.listFlows(tenantId, filter, 200, cursor);
      if (page.flows.length) yield page.flows;
      cursor = page.nextCursor;
    } while (cursor);
  }
}
