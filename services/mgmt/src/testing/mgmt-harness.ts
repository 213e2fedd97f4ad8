import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { type EventBus, MemoryEventBus, type OutgoingEvent } from '@sesame/events';
import { checkMail } from '@sesame/mail';
import {
  type PromiseClient,
  type RunningService,
  createClient,
  createLogger,
  runStandalone,
  sha256,
  trustedProxiesOf,
} from '@sesame/platform';
import { events, directory, topics } from '@sesame/proto';
import type express from 'express';
import { type AdminsRepositories, memoryAdmins } from '../admins';
import { newApiToken } from '../admins/api-tokens';
import type { AdminRole } from '../admins/model';
import { sqliteAdmins } from '../admins/sqlite';
import { configSchema } from '../config';
import { memoryDirectory } from '../directory';
import type { DirectoryRepositories } from '../directory/directory.repository';
import { sqliteDirectory } from '../directory/directory.sqlite';
import { type MgmtOverrides, createMgmtService } from '../service';
import { FakePeers } from './fake-peers';

export const ADMIN_KEY = 'test-admin-key-0123456789';

/**
 * Asserts a management API error answer (ARCHITECTURE §7): this status, `{status: 'error', error}` with this
 * code and a message, and `field` among error.fields when given; returns the body.
 */
export async function expectMgmtError(res: Response, status: number, code: string, field?: string) {
  const body = (await res.json()) as {
    status: string;
    error: { code: string; message: string; fields?: Record<string, string> };
  };
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.status, 'error');
  assert.equal(body.error.code, code);
  assert.ok(body.error.message.length > 0);
  if (field) assert.ok(body.error.fields?.[field], `${field} in ${JSON.stringify(body.error.fields)}`);
  return body;
}

/** The error object of a management API error answer (ARCHITECTURE §7). */
export async function errorOf(
  res: Response,
): Promise<{ code: string; message: string; fields?: Record<string, string> }> {
  return ((await res.json()) as { error: { code: string; message: string; fields?: Record<string, string> } })
    .error;
}

/** A clock the test moves. */
export class TestClock {
  constructor(public t = Date.UTC(2026, 0, 1)) {}
  now = () => this.t;
}

/** Records what is published (decoded admin events) and hands it on to an in-memory bus. */
export function recordingBus(): { bus: EventBus; adminEvents: events.AdminEvent[]; keys: string[] } {
  const inner = new MemoryEventBus();
  const adminEvents: events.AdminEvent[] = [];
  const keys: string[] = [];
  const bus: EventBus = {
    publisher: {
      async publish(topic: string, batch: OutgoingEvent[]) {
        if (topic === topics.adminEvents) {
          for (const e of batch) {
            adminEvents.push(events.AdminEvent.decode(e.value));
            keys.push(e.key);
          }
        }
        await inner.publisher.publish(topic, batch);
      },
      flush: (ms) => inner.publisher.flush(ms),
      pending: () => inner.publisher.pending(),
    },
    consumer: (o) => inner.consumer(o),
    consumerLag: () => inner.consumerLag(),
    endOffsets: (t) => inner.endOffsets(t),
    ensureTopics: (t) => inner.ensureTopics(t),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
  return { bus, adminEvents, keys };
}

/** A tenant with one application and API credentials, and a live svc_admin_api bearer token for them. */
export interface ApiTenant {
  tenantId: string;
  appId: string;
  clientId: string;
  credentialsId: string;
  token: string;
}

export interface MgmtHarness {
  url: string;
  clock: TestClock;
  peers: FakePeers;
  dir: DirectoryRepositories;
  admins: AdminsRepositories;
  /** Every mail sent (invitations), checked as the real senders check them (checkMail). */
  mail: { to: string; subject: string; text: string; html: string }[];
  /** Set: every mail send fails with it (an SMTP outage). */
  mailFailure?: Error;
  /** mgmt's public routes (the fuzz test enumerates them). */
  routes: express.Router;
  adminEvents: events.AdminEvent[];
  eventKeys: string[];
  directoryClient: PromiseClient<directory.DirectoryServiceClient>;
  /** A call to the admin API with the admin key (override headers to test authentication). */
  admin(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /**
   * An administrator `email` with `role` in `tenantId` and a personal API token of theirs in that tenant (both
   * created directly in the store: a token cannot make tokens); returns the token.
   */
  adminToken(tenantId: string, email: string, role: AdminRole): Promise<string>;
  /** A call to the admin API with a personal API token. */
  asToken(token: string, method: string, path: string, body?: unknown): Promise<Response>;
  /** Creates a tenant through the admin API; returns its id. */
  createTenant(name: string): Promise<string>;
  /** Creates an application in `tenantId` with these settings through the admin API; returns the answer's body. */
  createApp<T>(tenantId: string, settings: Record<string, unknown>): Promise<T>;
  /** Makes `token` a live svc_admin_api bearer token of these API credentials for `ttlSeconds`. */
  apiToken(token: string, creds: { tenantId: string; credentialsId: string }, ttlSeconds?: number): void;
  /**
   * Creates a tenant `name` with an application (`name` plus `app`'s settings) and API credentials through the
   * admin API, and a bearer token for them (`token-<name>` unless given, live for an hour).
   */
  apiTenant(name: string, app?: Record<string, unknown>, token?: string): Promise<ApiTenant>;
  stop(): Promise<void>;
}

/**
 * mgmt on ephemeral ports with in-memory stores, real gRPC to fake peers, and a controllable clock. With
 * `extra.embedded` (a durable engine), mgmt chooses its repositories itself as the embedded default does (and
 * `dir`/`admins` are other handles on the same engine's tables).
 */
export async function startMgmt(
  env: Record<string, string> = {},
  extra: Pick<MgmtOverrides, 'support' | 'kv' | 'embedded'> = {},
): Promise<MgmtHarness> {
  const clock = new TestClock();
  const peers = await new FakePeers(clock).start();
  const { bus, adminEvents, keys } = recordingBus();
  peers.adminLogEvents = adminEvents;
  const dir = extra.embedded ? sqliteDirectory(extra.embedded) : memoryDirectory();
  const admins = extra.embedded ? sqliteAdmins(extra.embedded) : memoryAdmins();
  const mail: MgmtHarness['mail'] = [];
  const config = configSchema.parse({
    SESAME_ENV: 'test',
    SESAME_ADMIN_KEY: ADMIN_KEY,
    SESAME_ADMIN_BREAK_GLASS: 'on',
    SESAME_GRANTS_ADDR: peers.address,
    SESAME_USERS_ADDR: peers.address,
    SESAME_KEYS_ADDR: peers.address,
    SESAME_ACTIVITY_LOGS_ADDR: peers.address,
    SESAME_ADMIN_URL: 'http://admin.sesame.test',
    ...env,
  });
  const logger = createLogger({ service: 'mgmt', level: 'silent' });
  const mailer = {
    async send(m: MgmtHarness['mail'][number]) {
      if (harness.mailFailure) throw harness.mailFailure;
      mail.push(checkMail(m));
      return { id: String(mail.length) };
    },
    async close() {},
  };
  const mod = await createMgmtService(config, {
    bus,
    ...(extra.embedded ? {} : { directory: dir, admins }),
    mail: mailer,
    clock,
    logger,
    // No support look-up unless the test gives one: the harness has no auth or activity-log to ask.
    support: undefined,
    ...extra,
  });
  const running: RunningService = await runStandalone(mod, {
    trustedProxies: trustedProxiesOf(config),
    httpPort: 0,
    grpcPort: 0,
    host: '127.0.0.1',
    shutdownTimeoutMs: 1000,
  });
  const url = `http://127.0.0.1:${running.httpPort}`;
  const directoryClient = createClient(directory.DirectoryServiceClient, `127.0.0.1:${running.grpcPort}`);
  const admin: MgmtHarness['admin'] = (method, path, body, headers = {}) =>
    fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN_KEY}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const asToken: MgmtHarness['asToken'] = (token, method, path, body) =>
    admin(method, path, body, { authorization: `Bearer ${token}` });
  const adminToken: MgmtHarness['adminToken'] = async (tenantId, email, role) => {
    if (!(await admins.accounts.get(tenantId, email))) {
      await admins.accounts.create({ tenantId, email, role, createdAt: clock.now() });
    }
    return storedToken(tenantId, email);
  };
  /**
   * A token stored directly: only a console session with a recent sign-in makes tokens, so a test that needs
   * one for the admin API puts it in the store (as the console would have made it).
   */
  const storedToken = async (tenantId: string, email: string) => {
    const token = newApiToken();
    await admins.tokens.create({
      tokenId: randomUUID(),
      tenantId,
      email,
      name: 'test',
      tokenHash: sha256(token),
      createdAt: clock.now(),
      expiresAt: clock.now() + 90 * 86_400_000,
    });
    return token;
  };
  const created = async <T>(path: string, body?: unknown) =>
    (await (await admin('POST', path, body)).json()) as T;
  const apiToken: MgmtHarness['apiToken'] = (token, { tenantId, credentialsId }, ttlSeconds = 3600) => {
    peers.tokens.set(token, {
      tenantId,
      credentialsId,
      scope: 'svc_admin_api',
      expiresAt: clock.now() / 1000 + ttlSeconds,
    });
  };
  const harness: MgmtHarness = {
    url,
    clock,
    peers,
    dir,
    admins,
    mail,
    routes: mod.routes!,
    adminToken,
    asToken,
    adminEvents,
    eventKeys: keys,
    directoryClient,
    admin,
    apiToken,
    createTenant: async (name) =>
      (await created<{ tenantId: string }>('/api/v1/admin/tenants', { name })).tenantId,
    createApp: (tenantId, settings) => created(`/api/v1/admin/tenants/${tenantId}/applications`, settings),
    async apiTenant(name, app = {}, token = `token-${name}`) {
      const { tenantId } = await created<{ tenantId: string }>('/api/v1/admin/tenants', { name });
      const tenantPath = `/api/v1/admin/tenants/${tenantId}`;
      const { appId, clientId } = await created<{ appId: string; clientId: string }>(
        `${tenantPath}/applications`,
        { name, ...app },
      );
      const { credentialsId } = await created<{ credentialsId: string }>(`${tenantPath}/credentials`);
      apiToken(token, { tenantId, credentialsId });
      return { tenantId, appId, clientId, credentialsId, token };
    },
    async stop() {
      directoryClient.close();
      await running.stop();
      await peers.stop();
    },
  };
  return harness;
}
